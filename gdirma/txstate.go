package gdirma

import "github.com/gdi-go/gdi/gdirma/internal/layout"

// txState is what an open transaction works with: its copies of holders,
// its queries and its buffers. A rank keeps the states of transactions
// that ended (Database.states) and hands them to the next ones, zeroed:
// starting a transaction then writes to memory the rank used a moment
// ago, not to a fresh allocation of seven cache lines. A read transaction
// is only a few cache misses, and those lines cost about a tenth to a
// fifth of it (BenchmarkOLTP/CountEdges went from 0.70-1.09 to 0.62-0.85
// µs).
//
// Only a Transaction that is open holds a state, and it drops it in end,
// under its mu and the database's: a handle or holder kept after the end
// finds the transaction closed before it could reach the state, which by
// then may be another transaction's.
type txState struct {
	epochSet bool // see epoch
	objs     [2]objTable
	scans    []scan
	scanBuf  [1]scan // room for the first scan
	hitBuf   [1]layout.Number
	// scratch outlives the state's reuse (giveState keeps it).
	scratch *txScratch
	walk    *walkScratch // of vertexHolder.walkIncident, made on first use
	// images are the pooled buffers of long images the transaction read
	// (graph.loadRefs), given back when it ends.
	images   []*[]byte
	imageBuf [2]*[]byte // room for the first images
	// alias maps numbers of lightweight edges moved to holders of their
	// own in this transaction to their new numbers.
	alias map[layout.Number]layout.Number
	// freeing is the vertex vertexHolder.Free is deleting, 0 otherwise:
	// attach leaves its references alone, as its whole holder goes.
	// Removing them one by one would cost time quadratic in its degree.
	freeing layout.Number
	// epoch is the commit counter before the first scan (if epochSet).
	epoch uint64
}

// txScratch is room a transaction writes into and no one keeps past
// its end: it is not zeroed between transactions.
type txScratch struct {
	// dht is where TranslateVertexID copies DHT entries (dht.Guess and
	// dht.LookupBuf): a bucket slot's first part, or an entry, for keys
	// of idKeyLen bytes.
	dht [dhtScratch]byte
	// heads holds the labels and properties a commit writes over in
	// place (headSpace); used up to headsUsed.
	heads     [256]byte
	headsUsed int
}

// scratchSpace returns the state's scratch, made on first use.
func (s *txState) scratchSpace() *txScratch {
	if s.scratch == nil {
		s.scratch = new(txScratch)
	}
	return s.scratch
}

// headSpace returns an empty slice with room for l bytes, for a head the
// commit writes over in place: in the scratch if it has that much left.
func (s *txState) headSpace(l int) []byte {
	sc := s.scratchSpace()
	if free := sc.heads[sc.headsUsed:]; len(free) >= l {
		sc.headsUsed += l
		return free[:0:l]
	}
	return make([]byte, 0, l)
}

// maxSpareStates bounds the states a rank keeps: as many as transactions
// it ran at once, up to this.
const maxSpareStates = 64

// takeState returns a zeroed state for a transaction that starts. The
// caller holds db.mu.
func (db *Database) takeState() *txState {
	if n := len(db.states); n > 0 {
		s := db.states[n-1]
		db.states[n-1] = nil
		db.states = db.states[:n-1]
		return s
	}
	return new(txState)
}

// giveState takes back the state of a transaction that ended, zeroed so
// that it keeps nothing of it alive. The caller holds db.mu.
func (db *Database) giveState(s *txState) {
	if s == nil || len(db.states) >= maxSpareStates {
		return
	}
	sc := s.scratch
	*s = txState{scratch: sc}
	if sc != nil {
		sc.headsUsed = 0
	}
	db.states = append(db.states, s)
}
