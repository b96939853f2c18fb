package oltp

import (
	"errors"
	"testing"

	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/generator"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/count"
	"github.com/gdi-go/gdi/rma/local"
)

// runOnGdirma loads a fixed graph into gdirma on one rank by transactions
// (generator Insert), runs LB and WI on it with one goroutine, and
// returns the one-sided calls per operation of each "mix op".
func runOnGdirma(t *testing.T) map[string]float64 {
	t.Helper()
	g, err := generator.New(generator.Config{Scale: 8, EdgeFactor: 8, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	err = local.Run(1, func(c rma.Comm) error {
		cc := count.Wrap(c)
		db, err := gdirma.Driver{}.CreateDatabase(cc, nil)
		if err != nil {
			return err
		}
		m, err := g.Scheme().CreateMetadata(db)
		if err == nil {
			err = g.Insert(cc, db, m, generator.InsertOptions{})
		}
		for _, mix := range []Mix{LB, WI} {
			if err != nil {
				break
			}
			var r *Report
			r, err = Run(cc, db, Config{Mix: mix, Graph: g, Meta: m, Count: 3000, Seed: 11, Calls: cc.Counts})
			for _, o := range r.Ops {
				if o.Committed+o.NotFound+o.Failed > 0 && err == nil {
					got[mix.Name+" "+o.Op] = o.Calls.MPI
				}
			}
		}
		return errors.Join(err, db.Free())
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestRunOnGdirma runs LB and WI on gdirma, whose vertices carry long
// properties and few edges: under -race its invariants read back every
// write, the references dropped in place among them, and compare it with
// the record code's image.
func TestRunOnGdirma(t *testing.T) {
	if got := runOnGdirma(t); len(got) == 0 {
		t.Fatal("no operation ran")
	}
}
