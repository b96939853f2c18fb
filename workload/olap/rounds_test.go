package olap

import (
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/workload/graphalytics"
)

// TestOnRound counts the rounds the algorithms report: PageRank exactly its
// iterations; BFS one per level it expands plus the last, empty one; WCC
// and CDLP until nothing changes (at least one).
func TestOnRound(t *testing.T) {
	d := readDataset(t, "test-bfs-undirected")
	onGraph(t, d, 2, graphalytics.LoadAuto, func(g *Graph) error {
		rounds := 0
		g.OnRound = func() { rounds++ }
		count := func(name string, run func() error) (int, error) {
			rounds = 0
			err := run()
			return rounds, err
		}
		n, err := count("pr", func() error { _, err := PageRank(g, 0.85, 7); return err })
		if err != nil || n != 7 {
			return fmt.Errorf("PageRank with 7 iterations reported %d rounds (%v)", n, err)
		}
		var res *BFSResult
		n, err = count("bfs", func() (err error) { res, err = BFS(g, 1); return err })
		if err != nil {
			return err
		}
		deepest := []int64{0}
		for _, l := range res.Level {
			if l != Unreached {
				deepest[0] = max(deepest[0], l)
			}
		}
		if err := g.Comm().AllreduceInt64(deepest, rma.OpMax); err != nil {
			return err
		}
		if int64(n) != deepest[0]+1 {
			return fmt.Errorf("BFS reaching depth %d reported %d rounds, want %d", deepest[0], n, deepest[0]+1)
		}
		for name, run := range map[string]func() error{
			"wcc":  func() error { _, err := WCC(g); return err },
			"cdlp": func() error { _, err := CDLP(g, 5); return err },
		} {
			if n, err := count(name, run); err != nil || n < 1 || name == "cdlp" && n > 5 {
				return fmt.Errorf("%s reported %d rounds (%v)", name, n, err)
			}
		}
		return nil
	})
}
