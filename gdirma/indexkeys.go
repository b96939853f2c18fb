package gdirma

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// keys returns the entry keys of object r of kind k in the index.
func (d *treeDef) keys(k kind, r *record) [][]byte {
	if r == nil || !d.covers(r) {
		return nil
	}
	out := [][]byte{allKey(k)}
	if len(r.labels()) == 0 && slices.Contains(d.labels, uint32(gdi.LabelNone)) {
		out = append(out, labelKey(k, uint32(gdi.LabelNone)))
	}
	for _, l := range r.labels() {
		if slices.Contains(d.labels, l) {
			out = append(out, labelKey(k, l))
		}
	}
	for _, p := range r.props() {
		if slices.Contains(d.ptypes, p.Ptype) && planted != bugIndexSkipsProperties {
			out = append(out, propKey(k, p.Ptype, p.Value))
		}
	}
	return out
}

// The first byte of a key is the kind of object (high nibble) and the
// kind of entry.
func allKey(k kind) []byte { return []byte{byte(k)<<4 | keyAll} }

func labelKey(k kind, l uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte{byte(k)<<4 | keyLabel}, l)
}

func propPrefix(k kind, p uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte{byte(k)<<4 | keyProp}, p)
}

// propKey is the key of value v of property type p. Numbers are written so
// that their byte order is their numeric order (the first element of an
// array stands for it); other values are their bytes, cut to fit.
func propKey(kd kind, p uint32, v gdi.Value) []byte {
	k := propPrefix(kd, p)
	if x, ok := orderedNumber(v); ok {
		return binary.BigEndian.AppendUint64(k, x)
	}
	raw := v.AppendRaw(nil)
	return append(k, raw[:min(len(raw), indexMaxKey-len(k))]...)
}

// orderedNumber maps the first element of a numeric value to a word whose
// unsigned order is the numeric order within its datatype.
func orderedNumber(v gdi.Value) (uint64, bool) {
	raw := v.AppendRaw(nil)
	size, err := v.Datatype().Size()
	if err != nil || len(raw) < size {
		return 0, false
	}
	e := raw[:size]
	var u uint64
	for i := size - 1; i >= 0; i-- {
		u = u<<8 | uint64(e[i])
	}
	switch v.Datatype() {
	case gdi.Int8, gdi.Int16, gdi.Int32, gdi.Int64:
		shift := 64 - 8*uint(size)
		return uint64(int64(u<<shift)>>shift) ^ 1<<63, true
	case gdi.Uint8, gdi.Uint16, gdi.Uint32, gdi.Uint64:
		return u, true
	case gdi.Float, gdi.Double:
		f := math.Float64frombits(u)
		if v.Datatype() == gdi.Float {
			f = float64(math.Float32frombits(uint32(u)))
		}
		if f == 0 {
			f = 0 // -0 and +0 are equal
		}
		b := math.Float64bits(f)
		if b&(1<<63) != 0 {
			return ^b, true
		}
		return b | 1<<63, true
	}
	return 0, false
}

// keyRange is an inclusive range of keys.
type keyRange struct{ lo, hi []byte }

// upTo returns the largest key that starts with prefix.
func upTo(prefix []byte) []byte {
	return append(slices.Clone(prefix), bytes.Repeat([]byte{0xff}, indexMaxKey-len(prefix))...)
}

// plan returns the key ranges that hold every vertex of the index that
// may satisfy dnf (all of them if has is false).
func (db *Database) plan(d *treeDef, k kind, dnf gdi.DNF, has bool) []keyRange {
	all := keyRange{allKey(k), allKey(k)}
	if !has {
		return []keyRange{all}
	}
	var out []keyRange
	add := func(r keyRange) {
		if !slices.ContainsFunc(out, func(x keyRange) bool { return bytes.Equal(x.lo, r.lo) && bytes.Equal(x.hi, r.hi) }) {
			out = append(out, r)
		}
	}
	for _, c := range dnf {
		if r, ok := db.propRange(d, k, c); ok {
			add(r)
			continue
		}
		found := false
		for _, lc := range c.Labels {
			n, err := db.LabelNum(lc.Label, true)
			if err == nil && lc.Op == gdi.Equal && slices.Contains(d.labels, n) {
				key := labelKey(k, n)
				add(keyRange{key, key})
				found = true
				break
			}
		}
		if !found {
			add(all)
		}
	}
	return out
}

// propRange returns a range for the property conditions of c on a type
// in P: the intersection of their ranges (exact for numbers and for
// equality of bytewise-equal types, the whole type otherwise), for the
// type whose conditions narrow it most.
func (db *Database) propRange(d *treeDef, kd kind, c gdi.Conjunction) (keyRange, bool) {
	type cand struct {
		r      keyRange
		narrow int // 0 the whole type, 1 one bound, 2 both, 3 equality
	}
	byType := map[uint32]*cand{}
	var order []uint32
	for _, pc := range c.Properties {
		if pc.PropertyType.IsReadOnly() {
			continue
		}
		n, info, err := db.PtypeNum(pc.PropertyType)
		if err != nil || !slices.Contains(d.ptypes, n) {
			continue
		}
		pfx := propPrefix(kd, n)
		x := byType[n]
		if x == nil {
			x = &cand{r: keyRange{pfx, upTo(pfx)}}
			byType[n] = x
			order = append(order, n)
		}
		if pc.Value.Datatype() != info.Datatype {
			continue
		}
		k := propKey(kd, n, pc.Value)
		_, numeric := orderedNumber(pc.Value)
		// Equal values have equal keys only where equality is that of the
		// bytes (not for times with zones or decimals).
		bytewise := numeric || info.Datatype == gdi.Char || info.Datatype == gdi.Byte || info.Datatype == gdi.Bool
		switch {
		case pc.Op == gdi.Equal && bytewise:
			x.r, x.narrow = keyRange{k, k}, 3
		case x.narrow == 3:
		case numeric && (pc.Op == gdi.Smaller || pc.Op == gdi.EqSmaller):
			if bytes.Compare(k, x.r.hi) < 0 {
				x.r.hi = k
			}
			x.narrow = min(2, x.narrow+1)
		case numeric && (pc.Op == gdi.Greater || pc.Op == gdi.EqGreater):
			if bytes.Compare(k, x.r.lo) > 0 {
				x.r.lo = k
			}
			x.narrow = min(2, x.narrow+1)
		}
	}
	var best *cand
	for _, n := range order {
		if x := byType[n]; best == nil || x.narrow > best.narrow {
			best = x
		}
	}
	if best == nil {
		return keyRange{}, false
	}
	if bytes.Compare(best.r.lo, best.r.hi) > 0 {
		best.r.hi = best.r.lo // empty in truth; one key to check
	}
	return best.r, true
}
