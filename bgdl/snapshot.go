package bgdl

import "github.com/gdi-go/gdi/rma"

// Windows returns the pool's windows, data, usage and system, for
// checkpoints: together with the Config they are the whole state of the
// pool, so a pool created with the same Config whose windows are given
// the same contents on every rank is the same pool.
func (p *Pool) Windows() []rma.Window { return []rma.Window{p.data, p.usage, p.system} }
