package cypher

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"

	"github.com/gdi-go/gdi/cypher/value"
	"github.com/gdi-go/gdi/internal/wire"
)

// The wire form of what rank 0 broadcasts after executing a statement: an
// outcome tag, then a Result, an Error or the keys needed. Values are a
// tag byte and their bytes; lengths and counts are uvarints.

const (
	outResult byte = iota
	outError
	outKeys
)

// outcome is what an execution on rank 0 ends with.
type outcome struct {
	res  *Result
	err  *Error
	keys []string
}

type encoder struct{ b []byte }

func (e *encoder) uint(x uint64) { e.b = binary.AppendUvarint(e.b, x) }
func (e *encoder) word(x uint64) { e.b = binary.LittleEndian.AppendUint64(e.b, x) }
func (e *encoder) str(s string)  { e.b = wire.AppendString(e.b, s) }
func (e *encoder) strs(s []string) {
	e.uint(uint64(len(s)))
	for _, x := range s {
		e.str(x)
	}
}

func encodeOutcome(o outcome) []byte {
	var e encoder
	switch {
	case o.keys != nil:
		e.b = append(e.b, outKeys)
		e.strs(o.keys)
	case o.err != nil:
		e.b = append(e.b, outError)
		e.strs([]string{o.err.Category, o.err.Detail, o.err.Msg})
		e.b = append(e.b, boolByte(o.err.Unsupported))
	default:
		e.b = append(e.b, outResult)
		e.result(o.res)
	}
	return e.b
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func (e *encoder) result(r *Result) {
	e.strs(r.Columns)
	e.uint(uint64(len(r.Rows)))
	for _, row := range r.Rows {
		for _, v := range row {
			e.value(v)
		}
	}
	ids := sortedIDs(r.nodes)
	e.uint(uint64(len(ids)))
	for _, id := range ids {
		e.word(uint64(id))
		e.element(r.nodes[id])
	}
	rids := sortedIDs(r.rels)
	e.uint(uint64(len(rids)))
	for _, id := range rids {
		e.word(id[0])
		e.word(id[1])
		e.element(r.rels[id])
	}
}

func (e *encoder) element(el Element) {
	e.strs(el.Labels)
	e.value(value.MapValue(el.Properties))
}

func sortedIDs[K value.NodeID | value.RelID](m map[K]Element) []K {
	ks := make([]K, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.SortFunc(ks, func(a, b K) int {
		return value.Compare(idValue(a), idValue(b))
	})
	return ks
}

func idValue[K value.NodeID | value.RelID](k K) value.Value {
	switch k := any(k).(type) {
	case value.NodeID:
		return value.NodeValue(value.Node{ID: k})
	case value.RelID:
		return value.RelValue(value.Relationship{ID: k})
	}
	return value.Null
}

const (
	tagNull byte = iota
	tagBool
	tagInt
	tagFloat
	tagString
	tagList
	tagMap
	tagNode
	tagRel
	tagPath
)

func (e *encoder) value(v value.Value) {
	switch v.Kind() {
	case value.KindNull:
		e.b = append(e.b, tagNull)
	case value.KindBoolean:
		e.b = append(e.b, tagBool, boolByte(v.Bool()))
	case value.KindInteger:
		e.b = append(e.b, tagInt)
		e.word(uint64(v.Int()))
	case value.KindFloat:
		e.b = append(e.b, tagFloat)
		e.word(math.Float64bits(v.Float()))
	case value.KindString:
		e.b = append(e.b, tagString)
		e.str(v.Str())
	case value.KindList:
		e.b = append(e.b, tagList)
		e.uint(uint64(len(v.List())))
		for _, x := range v.List() {
			e.value(x)
		}
	case value.KindMap:
		e.b = append(e.b, tagMap)
		e.uint(uint64(v.Map().Len()))
		for k, x := range v.Map().All() {
			e.str(k)
			e.value(x)
		}
	case value.KindNode:
		e.b = append(e.b, tagNode)
		e.word(uint64(v.Node().ID))
	case value.KindRelationship:
		e.b = append(e.b, tagRel)
		e.rel(v.Relationship())
	case value.KindPath:
		e.path(v.Path())
	}
}

func (e *encoder) rel(r value.Relationship) {
	e.word(r.ID[0])
	e.word(r.ID[1])
	e.word(uint64(r.Start))
	e.word(uint64(r.End))
}

func (e *encoder) path(p value.Path) {
	e.b = append(e.b, tagPath)
	e.uint(uint64(len(p.Rels)))
	for _, n := range p.Nodes {
		e.word(uint64(n.ID))
	}
	for _, r := range p.Rels {
		e.rel(r)
	}
}

// decoder reads the wire form; the first error sticks.
type decoder struct {
	b   []byte
	err error
}

var errWire = errors.New("cypher: damaged result broadcast")

func (d *decoder) byte() byte {
	if len(d.b) < 1 {
		d.err = errWire
		return 0
	}
	x := d.b[0]
	d.b = d.b[1:]
	return x
}

func (d *decoder) uint() uint64 {
	x, rest, ok := wire.Uvarint(d.b)
	if !ok {
		d.err = errWire
		return 0
	}
	d.b = rest
	return x
}

func (d *decoder) count() int {
	n := d.uint()
	if n > uint64(len(d.b)) { // every element takes at least one byte
		d.err = errWire
		return 0
	}
	return int(n)
}

func (d *decoder) word() uint64 {
	if len(d.b) < 8 {
		d.err = errWire
		return 0
	}
	x := binary.LittleEndian.Uint64(d.b)
	d.b = d.b[8:]
	return x
}

func (d *decoder) str() string {
	s, rest, ok := wire.Bytes(d.b)
	if !ok {
		d.err = errWire
		return ""
	}
	d.b = rest
	return string(s)
}

func (d *decoder) strs() []string {
	out := make([]string, d.count())
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func decodeOutcome(b []byte) (outcome, error) {
	d := &decoder{b: b}
	var o outcome
	switch d.byte() {
	case outKeys:
		o.keys = d.strs()
	case outError:
		s := d.strs()
		if len(s) == 3 {
			o.err = &Error{Category: s[0], Detail: s[1], Msg: s[2], Unsupported: d.byte() == 1}
		} else {
			d.err = errWire
		}
	default:
		o.res = d.result()
	}
	return o, d.err
}

func (d *decoder) result() *Result {
	r := &Result{Columns: d.strs()}
	n := d.count()
	for i := 0; i < n && d.err == nil; i++ {
		row := make([]value.Value, len(r.Columns))
		for j := range row {
			row[j] = d.value()
		}
		r.Rows = append(r.Rows, row)
	}
	for n := d.count(); n > 0 && d.err == nil; n-- {
		id := value.NodeID(d.word())
		put(&r.nodes, id, d.element())
	}
	for n := d.count(); n > 0 && d.err == nil; n-- {
		id := value.RelID{d.word(), d.word()}
		put(&r.rels, id, d.element())
	}
	return r
}

func (d *decoder) element() Element {
	el := Element{Labels: d.strs()}
	if m := d.value(); m.Kind() == value.KindMap {
		el.Properties = m.Map()
	} else if d.err == nil {
		d.err = errWire
	}
	return el
}

func (d *decoder) value() value.Value {
	if d.err != nil {
		return value.Null
	}
	switch d.byte() {
	case tagBool:
		return value.Bool(d.byte() == 1)
	case tagInt:
		return value.Int(int64(d.word()))
	case tagFloat:
		return value.Float(math.Float64frombits(d.word()))
	case tagString:
		return value.Str(d.str())
	case tagList:
		l := make([]value.Value, d.count())
		for i := range l {
			l[i] = d.value()
		}
		return value.NewList(l)
	case tagMap:
		n := d.count()
		keys, vals := make([]string, n), make([]value.Value, n)
		for i := range keys {
			keys[i], vals[i] = d.str(), d.value()
		}
		return value.MapFromPairs(keys, vals)
	case tagNode:
		return value.NodeValue(value.Node{ID: value.NodeID(d.word())})
	case tagRel:
		return value.RelValue(d.rel())
	case tagPath:
		return d.path()
	}
	return value.Null
}

func (d *decoder) rel() value.Relationship {
	return value.Relationship{ID: value.RelID{d.word(), d.word()}, Start: value.NodeID(d.word()), End: value.NodeID(d.word())}
}

func (d *decoder) path() value.Value {
	n := d.count()
	nodes := make([]value.Node, n+1)
	for i := range nodes {
		nodes[i] = value.Node{ID: value.NodeID(d.word())}
	}
	rels := make([]value.Relationship, n)
	for i := range rels {
		rels[i] = d.rel()
	}
	if d.err != nil {
		return value.Null
	}
	p, err := value.NewPath(nodes, rels)
	if err != nil {
		d.err = err
	}
	return p
}
