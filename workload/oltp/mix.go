package oltp

import (
	"fmt"
	"strings"
)

// Op is an operation type.
type Op int

// Operation types, reads first.
const (
	GetVertexProperties Op = iota
	CountEdges
	GetEdges
	AddVertex
	DeleteVertex
	UpdateProperty
	AddEdge
	NumOps
)

var opNames = [NumOps]string{"get vertex properties", "count edges", "get edges", "add vertex", "delete vertex", "update property", "add edge"}

func (o Op) String() string {
	if o >= 0 && o < NumOps {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// Write reports whether o changes the graph.
func (o Op) Write() bool { return o >= AddVertex }

// Mix is a workload: the percentage of each operation type.
type Mix struct {
	Name    string
	Percent [NumOps]float64
}

// The mixes of the GDI paper, Table 3: read mostly, read intensive, write
// intensive, and LinkBench's own.
var (
	RM = Mix{"RM", [NumOps]float64{28.8, 11.7, 59.3, 0, 0, 0, 0.2}}
	RI = Mix{"RI", [NumOps]float64{21.7, 8.8, 44.5, 0, 0, 0, 25}}
	WI = Mix{"WI", [NumOps]float64{9.1, 0, 10.9, 20, 6.7, 13.3, 40}}
	LB = Mix{"LB", [NumOps]float64{12.9, 4.9, 51.2, 2.6, 1, 7.4, 20}}
)

// Mixes are the predefined mixes.
var Mixes = []Mix{RM, RI, WI, LB}

// MixByName returns the predefined mix called name, in any case.
func MixByName(name string) (Mix, error) {
	for _, m := range Mixes {
		if strings.EqualFold(m.Name, name) {
			return m, nil
		}
	}
	return Mix{}, fmt.Errorf("oltp: no workload %q (rm, ri, wi or lb)", name)
}

// Validate checks that the percentages are non-negative and add up to 100.
func (m Mix) Validate() error {
	sum := 0.0
	for o, p := range m.Percent {
		if p < 0 {
			return fmt.Errorf("oltp: mix %s: %v at %v%%", m.Name, Op(o), p)
		}
		sum += p
	}
	if sum < 99.999 || sum > 100.001 {
		return fmt.Errorf("oltp: mix %s adds up to %v%%, not 100%%", m.Name, sum)
	}
	return nil
}

// chooser picks operation types with a mix's probabilities from a uniform
// number in [0, 1).
type chooser [NumOps]float64 // cumulative fractions

func newChooser(m Mix) chooser {
	var c chooser
	sum := 0.0
	for o, p := range m.Percent {
		sum += p / 100
		c[o] = sum
	}
	c[NumOps-1] = 1 // absorb rounding
	return c
}

// pick returns the first type whose cumulative fraction exceeds u; a type
// at 0% has the same bound as the one before it and is never returned.
func (c *chooser) pick(u float64) Op {
	for o, limit := range c {
		if u < limit {
			return Op(o)
		}
	}
	return NumOps - 1
}
