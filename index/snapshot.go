package index

import (
	"fmt"

	"github.com/gdi-go/gdi/rma"
)

// Windows returns the forest's windows, the directory and those of the
// node pool (see bgdl.Pool.Windows), for checkpoints. With the Config and
// the mirror of the directory (Mirror) they are the whole state of the
// forest.
func (f *Forest) Windows() []rma.Window {
	return append([]rma.Window{f.dir}, f.pool.Windows()...)
}

// Mirror returns the local mirror of the directory, the same on every
// rank: the last generation of each tree slot and whether a tree owns it.
func (f *Forest) Mirror() (gens []uint64, live []bool) {
	return append([]uint64(nil), f.gens...), append([]bool(nil), f.live...)
}

// SetMirror sets the local mirror of the directory, to what Mirror
// returned for the forest whose windows were saved. Every rank calls it
// with the same values.
func (f *Forest) SetMirror(gens []uint64, live []bool) error {
	if len(gens) != f.trees || len(live) != f.trees {
		return fmt.Errorf("%w: a mirror of %d and %d slots for %d trees", ErrConfig, len(gens), len(live), f.trees)
	}
	for i, g := range gens {
		if g >= 1<<32 || live[i] && g == 0 {
			return fmt.Errorf("%w: slot %d has generation %d (live %v)", ErrConfig, i, g, live[i])
		}
	}
	copy(f.gens, gens)
	copy(f.live, live)
	return nil
}
