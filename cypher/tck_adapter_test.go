package cypher

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/gdi-go/gdi/cypher/internal/backendtest"
	"github.com/gdi-go/gdi/cypher/tck"
	"github.com/gdi-go/gdi/cypher/value"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// tckEngine adapts an Engine on every rank of a local run to tck.Engine:
// each call is sent to every rank's goroutine, and the ranks' answers
// must agree.
type tckEngine struct {
	cmds    []chan tckCmd
	replies chan tckReply
	done    chan error
}

type tckCmd struct {
	query  string
	params map[string]value.Value
	state  bool
}

type tckReply struct {
	rank int
	res  *tck.Result
	st   *tck.State
	err  error
}

func newTCKEngine(driver gdi.Driver, ranks int) *tckEngine {
	t := &tckEngine{replies: make(chan tckReply, ranks), done: make(chan error, 1)}
	for range ranks {
		t.cmds = append(t.cmds, make(chan tckCmd))
	}
	go func() {
		t.done <- local.Run(ranks, func(c rma.Comm) error {
			return withEngine(c, driver, func(e *Engine, _ gdi.Database) error {
				for cmd := range t.cmds[c.Rank()] {
					t.replies <- e.tckCall(cmd)
				}
				return nil
			})
		})
	}()
	return t
}

// tckCall runs one command on this rank's engine.
func (e *Engine) tckCall(cmd tckCmd) tckReply {
	r := tckReply{rank: e.comm.Rank()}
	if cmd.state {
		st, err := e.State()
		r.err = err
		if err == nil {
			r.st = tckState(st)
		}
		return r
	}
	res, err := e.Run(context.Background(), cmd.query, cmd.params)
	r.err = err
	if err == nil {
		r.res = &tck.Result{Columns: res.Columns, Rows: res.Strings()}
	}
	return r
}

func tckState(st *State) *tck.State {
	out := &tck.State{}
	for _, n := range st.Nodes {
		out.Nodes = append(out.Nodes, tck.StateNode{ID: fmt.Sprint(n.ID), Labels: n.Labels, Props: n.Properties})
	}
	for _, r := range st.Relationships {
		out.Rels = append(out.Rels, tck.StateRel{ID: fmt.Sprint(r.ID), Type: r.Type, Props: r.Properties})
	}
	return out
}

func (t *tckEngine) call(cmd tckCmd) tckReply {
	for _, c := range t.cmds {
		c <- cmd
	}
	replies := make([]tckReply, len(t.cmds))
	for range t.cmds {
		r := <-t.replies
		replies[r.rank] = r
	}
	for _, r := range replies[1:] {
		if fmt.Sprint(r.err, r.res, r.st) != fmt.Sprint(replies[0].err, replies[0].res, replies[0].st) {
			return tckReply{err: fmt.Errorf("the ranks disagree: %v, %v", replies[0], r)}
		}
	}
	return replies[0]
}

func (t *tckEngine) Run(query string, params map[string]value.Value) (*tck.Result, error) {
	r := t.call(tckCmd{query: query, params: params})
	return r.res, r.err
}

func (t *tckEngine) State() (*tck.State, error) {
	r := t.call(tckCmd{state: true})
	return r.st, r.err
}

func (t *tckEngine) Close() error {
	for _, c := range t.cmds {
		close(c)
	}
	return <-t.done
}

// tckFeatures returns the TCK directory, or skips the test.
func tckFeatures(t *testing.T) string {
	dir := os.Getenv("GDI_TCK_FEATURES")
	if dir == "" {
		dir = "../../shared/testdata/opencypher-tck/features"
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("TCK features not available: %v", err)
	}
	return dir
}

// tckFloor is the share of the TCK scenarios that must pass on every
// backend, in percent: the figure measured, rounded down.
const tckFloor = 94

// TestTCK runs the TCK on every backend: at least tckFloor percent pass,
// and every backend passes the same scenarios.
func TestTCK(t *testing.T) {
	dir := tckFeatures(t)
	var passed [][]string
	runOn := backendtest.All
	if raceEnabled {
		runOn = runOn[len(runOn)-1:]
	}
	for _, b := range runOn {
		rep, err := tck.Run(dir, func() (tck.Engine, error) { return newTCKEngine(b.Driver, b.Ranks), nil },
			tck.Options{Timeout: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v: %s", b, rep)
		if os.Getenv("GDI_TCK_DETAILS") != "" {
			t.Logf("%s", rep.Details())
		}
		total := rep.Passed + rep.Failed + rep.Skipped
		if rep.Passed*100 < tckFloor*total {
			t.Errorf("%v: %d of %d scenarios pass, want at least %d%%", b, rep.Passed, total, tckFloor)
		}
		var names []string
		for _, o := range rep.Outcomes {
			if o.Status == tck.Passed {
				names = append(names, o.Scenario.Path+" "+o.Scenario.Name)
			}
		}
		passed = append(passed, names)
	}
	for i := 1; i < len(passed); i++ {
		if !slices.Equal(passed[0], passed[i]) {
			t.Errorf("backend %d passes other scenarios than backend 0", i)
		}
	}
}
