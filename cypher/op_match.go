package cypher

import (
	"slices"
	"strings"

	"github.com/gdi-go/gdi/cypher/graph"
	"github.com/gdi-go/gdi/cypher/parse"
	"github.com/gdi-go/gdi/cypher/value"
	"github.com/gdi-go/gdi/gdi"
)

// propCheck is one entry {key: value} of a pattern's property map.
type propCheck struct {
	key      string
	fam      *graph.Family // key's, bound when planned
	val      expr
	constant bool
	text     string
}

// propsMatch reports whether the entity v has every property of checks
// equal to its value (a null value never matches).
func (x *execution) propsMatch(v value.Value, checks []propCheck, r row) (bool, error) {
	for _, c := range checks {
		want, err := c.val(x, r)
		if err != nil {
			return false, err
		}
		got, err := x.familyProperty(v, c.key, c.fam)
		if err != nil || !value.Equal(got, want).IsTrue() {
			return false, err
		}
	}
	return true, nil
}

func propsText(checks []propCheck) string {
	if len(checks) == 0 {
		return ""
	}
	var parts []string
	for _, c := range checks {
		parts = append(parts, c.key+": "+c.text)
	}
	return " {" + strings.Join(parts, ", ") + "}"
}

// scanOp binds a node variable to every node with the labels and
// properties of its pattern. It asks the node index with a constraint of
// the labels and of the pushed conditions (IndexSeek when there are
// some), adds the nodes this transaction created or changed (the index
// shows them only after commit), and checks each candidate.
type scanOp struct {
	slot   int
	labels []string
	props  []propCheck
	push   []pushCond
	seek   *pushCond // IDSeek: n.IDKey = constant, with a label
	name   string
	again  bool // in OPTIONAL MATCH: runs once per row before it, so its candidates are kept
}

// narrow lets the scan use the condition c to find fewer candidates: an
// equality on the application-level ID of a labelled node becomes an
// ID seek (TranslateVertexID), any other condition is pushed into the
// constraint while fewer than maxPushed are. c stays a filter, but for a
// seek, which finds only nodes that satisfy it: narrow reports whether c
// became the seek.
func (o *scanOp) narrow(c pushCond) (seek bool) {
	switch {
	case c.key == graph.IDKey && c.op == parse.OpEq && len(o.labels) > 0 && o.seek == nil:
		o.seek = &c
		return true
	case c.key != graph.IDKey && len(o.push) < maxPushed:
		o.push = append(o.push, c)
	}
	return false
}

func (o *scanOp) run(x *execution, in []row) ([]row, error) {
	cands, err := x.candidates(o)
	if err != nil {
		return nil, err
	}
	var out []row
	for _, r := range in {
		var last value.Value // the latest match: r's own, unless another follows
		for _, uid := range cands {
			n := value.NodeValue(value.Node{ID: value.NodeID(uid)})
			ok, err := x.propsMatch(n, o.props, r)
			if err != nil {
				return nil, err
			}
			if ok {
				if !last.IsNull() {
					out = append(out, with(r, o.slot, last))
				}
				last = n
			}
		}
		if !last.IsNull() {
			r[o.slot] = last
			out = append(out, r)
		}
	}
	return out, nil
}

// with returns a copy of r with v in slot s.
func with(r row, s int, v value.Value) row {
	rr := append(row(nil), r...)
	rr[s] = v
	return rr
}

// candidates returns the live nodes with the scan's labels that may
// satisfy its pushed conditions, in order and each once; a scan that
// runs again in one execution finds them once.
func (x *execution) candidates(o *scanOp) ([]gdi.VertexUID, error) {
	if c, ok := x.cache[o]; ok {
		return c.([]gdi.VertexUID), nil
	}
	find, labels := x.indexed, o.labels
	if o.seek != nil {
		find, labels = x.seekID, labels[1:] // found by the first label
	}
	uids, err := find(o)
	if err != nil {
		return nil, err
	}
	slices.Sort(uids)
	out := uids[:0] // the nodes kept, in place
	for _, uid := range slices.Compact(uids) {
		if x.st.deadV[uid] {
			continue
		}
		ok, err := x.hasLabels(value.NodeValue(value.Node{ID: value.NodeID(uid)}), labels)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, uid)
		}
	}
	if o.again {
		put(&x.cache, any(o), any(out))
	}
	return out, nil
}

// indexed returns the nodes of the node index that satisfy the scan's
// labels and pushed conditions, plus those this transaction touched.
func (x *execution) indexed(o *scanOp) ([]gdi.VertexUID, error) {
	dnf, none, err := x.scanDNF(o.labels, o.push)
	if err != nil {
		return nil, err
	}
	var uids []gdi.VertexUID
	if !none {
		var c gdi.Constraint
		if dnf != nil {
			if c, err = x.constraint(dnf); err != nil {
				return nil, err
			}
		}
		find := x.st.tx.VerticesOfIndex
		if o == x.localScan {
			find = x.st.tx.LocalVerticesOfIndex
		}
		if uids, err = find(x.eng.nodes.Index(), c); err != nil {
			return nil, err
		}
	}
	for uid := range x.st.touched {
		if !slices.Contains(uids, uid) {
			uids = append(uids, uid)
		}
	}
	return uids, nil
}

// seekID returns the node with the scan's first label whose
// application-level ID is the seek's value, if there is one; a value
// that is not a string matches no ID. TranslateVertexID sees this
// transaction's changes, so touched nodes need no second look.
func (x *execution) seekID(o *scanOp) ([]gdi.VertexUID, error) {
	v, err := o.seek.val(x, nil)
	if err != nil || v.Kind() != value.KindString {
		return nil, err
	}
	l, err := x.eng.schema.Label(o.labels[0])
	if err != nil || l == gdi.LabelNull {
		return nil, err
	}
	uid, found, err := x.st.tx.TranslateVertexID(l, []byte(v.Str()))
	switch {
	case gdi.Failed(err):
		return nil, err
	case !found:
		return nil, nil
	}
	return []gdi.VertexUID{uid}, nil // WarnNonUniqueID: any one of them
}

func (o *scanOp) explain() string {
	var conds []string
	for _, c := range o.push {
		conds = append(conds, o.name+"."+c.key+" "+string(c.op)+" "+c.text)
	}
	node := "(" + o.name + labelsText(o.labels) + propsText(o.props) + ")"
	switch {
	case o.seek != nil:
		return "IDSeek " + node + " WHERE " + o.name + "." + o.seek.key + " = " + o.seek.text
	case len(conds) > 0:
		return "IndexSeek " + node + " WHERE " + strings.Join(conds, " AND ")
	}
	return "NodeScan " + node
}

// nodeCheckOp keeps the rows whose bound node variable has the labels and
// properties of a pattern (a null one matches nothing).
type nodeCheckOp struct {
	slot   int
	labels []string
	props  []propCheck
	name   string
}

func (o *nodeCheckOp) run(x *execution, in []row) ([]row, error) {
	out := in[:0:0]
	for _, r := range in {
		ok, err := x.nodeMatches(r[o.slot], o.labels, o.props, r)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, r)
		}
	}
	return out, nil
}

func (o *nodeCheckOp) explain() string {
	return "Argument (" + o.name + labelsText(o.labels) + propsText(o.props) + ")"
}

// nodeMatches reports whether v is a live node with the labels and
// properties.
func (x *execution) nodeMatches(v value.Value, labels []string, props []propCheck, r row) (bool, error) {
	if v.Kind() != value.KindNode || x.st.deadV[nodeOf(v)] {
		return false, nil
	}
	ok, err := x.hasLabels(v, labels)
	if err != nil || !ok {
		return false, err
	}
	return x.propsMatch(v, props, r)
}

// pathOp binds a path variable to the nodes and relationships of a path
// pattern.
type pathOp struct {
	slot  int
	nodes []int
	rels  []relSlot
	name  string
}

func (o *pathOp) run(_ *execution, in []row) ([]row, error) {
	for i, r := range in {
		rr := append(row(nil), r...)
		p, err := o.path(r)
		if err != nil {
			return nil, err
		}
		rr[o.slot] = p
		in[i] = rr
	}
	return in, nil
}

func (o *pathOp) path(r row) (value.Value, error) {
	first := r[o.nodes[0]]
	if first.Kind() != value.KindNode {
		return value.Null, nil
	}
	nodes := []value.Node{first.Node()}
	var rels []value.Relationship
	for i, rs := range o.rels {
		step := []value.Value{r[rs.slot]}
		if rs.list {
			step = r[rs.slot].List()
		}
		for _, s := range step {
			if s.Kind() != value.KindRelationship {
				return value.Null, nil
			}
			rel := s.Relationship()
			next := rel.End
			if cur := nodes[len(nodes)-1].ID; rel.Start != cur {
				next = rel.Start
			}
			nodes, rels = append(nodes, value.Node{ID: next}), append(rels, rel)
		}
		if r[o.nodes[i+1]].Kind() != value.KindNode {
			return value.Null, nil
		}
	}
	return value.NewPath(nodes, rels)
}

func (o *pathOp) explain() string { return "Path " + o.name }
