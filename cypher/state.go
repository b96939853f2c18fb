package cypher

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/gdi-go/gdi/cypher/value"
	"github.com/gdi-go/gdi/gdi"
)

// State is the whole graph, for tests that compare side effects: every
// node and every relationship with its labels or type and its properties
// in the TCK notation, sorted by ID.
type State struct {
	Nodes         []NodeState
	Relationships []RelState
}

// NodeState is a node of a State.
type NodeState struct {
	ID         value.NodeID
	Labels     []string
	Properties map[string]string
}

// RelState is a relationship of a State.
type RelState struct {
	ID         value.RelID
	Type       string
	Start, End value.NodeID
	Properties map[string]string
}

// State reads the whole graph on rank 0 and broadcasts it. It is
// collective.
func (e *Engine) State() (*State, error) {
	var local outcome
	if e.comm.Rank() == 0 {
		st, err := e.readState()
		if err != nil {
			local.err = wrapError(err)
		} else {
			b, err := json.Marshal(st)
			if err != nil {
				local.err = wrapError(err)
			}
			local.res = &Result{Columns: []string{"state"}, Rows: [][]value.Value{{value.Str(string(b))}}}
		}
	}
	o, err := e.broadcast(local)
	if err != nil {
		return nil, wrapError(err)
	}
	if o.err != nil {
		return nil, o.err
	}
	var st State
	if err := json.Unmarshal([]byte(o.res.Rows[0][0].Str()), &st); err != nil {
		return nil, wrapError(err)
	}
	return &st, nil
}

func (e *Engine) readState() (*State, error) {
	var st *State
	err := runTransaction(context.Background(), e.db, func(tx gdi.Transaction) error {
		s := newStore(e, tx)
		st = &State{}
		uids, err := tx.VerticesOfIndex(e.nodes.Index(), nil)
		if err != nil {
			return err
		}
		slices.Sort(uids)
		for _, uid := range uids {
			if err := s.readNode(st, uid); err != nil {
				return err
			}
		}
		slices.SortFunc(st.Relationships, func(a, b RelState) int {
			return value.Compare(value.RelValue(value.Relationship{ID: a.ID}), value.RelValue(value.Relationship{ID: b.ID}))
		})
		return nil
	})
	return st, err
}

// readNode adds a node and its outgoing relationships to st.
func (s *store) readNode(st *State, uid gdi.VertexUID) error {
	h, err := s.vertex(value.NodeID(uid))
	if err != nil {
		return err
	}
	ns := NodeState{ID: value.NodeID(uid)}
	if ns.Labels, err = s.labels(h); err != nil {
		return err
	}
	if ns.Properties, err = s.formattedProperties(h); err != nil {
		return err
	}
	st.Nodes = append(st.Nodes, ns)
	es, err := h.Edges(gdi.EdgeOutgoing, nil)
	if err != nil {
		return err
	}
	for _, e := range es {
		rel, err := s.relationship(e)
		if err != nil {
			return err
		}
		eh, err := s.edge(rel.ID)
		if err != nil {
			return err
		}
		rs := RelState{ID: rel.ID, Start: rel.Start, End: rel.End}
		if rs.Type, err = s.relType(eh); err != nil {
			return err
		}
		if rs.Properties, err = s.formattedProperties(eh); err != nil {
			return err
		}
		st.Relationships = append(st.Relationships, rs)
	}
	return nil
}

func (s *store) formattedProperties(h gdi.Holder) (map[string]string, error) {
	props, err := s.properties(h)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for k, v := range props.Map().All() {
		out[k] = value.Format(v, nil)
	}
	return out, nil
}
