// Package index keeps sorted sets of (key, value) entries, the explicit
// indexes of GDI-RMA, as B+trees stored in RMA windows. Keys are byte
// strings, values 64-bit words (typically DPtrs of vertex holders); entries
// are ordered by key bytes and then by value, and each entry is present at
// most once, so one key may carry many values.
//
// # Model
//
// A Forest holds up to Config.Trees trees. A tree is split into parts, one
// per rank, and each part is an independent B+tree whose nodes all live on
// its rank. Which entries go to which part is the caller's choice (GDI-RMA
// puts an index entry on the rank of the vertex it names). Any rank can
// insert into, delete from, scan and count any rank's part, and does so with
// one-sided operations only: it reads and writes nodes with Get, Put and
// Flush, takes blocks from the owner's bgdl.Pool, and locks with atomics.
// The owner is never asked to do anything, so a global query is just a scan
// of every part, issued by whoever needs the answer, and an idle or busy
// owner does not slow it down.
//
// Concurrency control is deliberately coarse: each part has one
// reader-writer lock word (txn lock words). Insert, Delete and Apply take it
// for writing, Scan and Len for reading, and hold it for that one call only.
// A lock that stays taken for about a second fails the call with ErrBusy
// rather than waiting on. Under the lock, the part is a plain sequential
// B+tree, which keeps the code small and every result exact.
//
// # Layout
//
// The directory window holds, on every rank, one slot of 32 bytes per tree:
// the lock word of that rank's part, the generation of the tree that owns
// the slot (0 if none), the part's root node and its entry count. A Tree id
// is the slot and the generation, so an id kept after Drop fails with
// ErrTree even once Create has reused the slot.
//
// Nodes are blocks of a bgdl.Pool of Config.NodeSize bytes, Config.Nodes per
// rank, shared by the parts of all trees on that rank. A node starts with a
// 16-byte header (entry count, leaf or inner kind, and a DPtr: the next leaf
// for leaves, the leftmost child for inner nodes), followed by fixed-size
// slots: key length, key bytes padded to Config.MaxKey, value, and for inner
// nodes the child to the right of the separator. Leaves are linked left to
// right, so Scan descends once to its lower bound and then reads leaves
// until it passes its upper bound: O(log n + k) node reads for k results,
// into a single reused buffer. An insert that splits reserves every block it
// will need (at most the height plus one) before it writes anything, so
// ErrFull leaves the tree as it was.
//
// # Caveats
//
//   - Deletes never merge nodes. Underfull and even empty leaves stay in the
//     tree until the part is empty, when all its nodes are freed; a part that
//     shrinks a lot keeps its nodes, and a scan may step over empty leaves.
//   - Slots have room for MaxKey bytes whatever the key's length, so short
//     keys waste space. Keys longer than MaxKey fail with ErrKey: callers
//     that index long values must truncate or hash them themselves, and
//     handle the resulting false matches.
//   - The lock is per part: writers to the same part run one after the
//     other, and a long Scan holds off writers to its part. Scan's callback
//     must not write to the part it scans.
package index
