package main

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"time"
)

// A flag's bounds are the same in every command that has it, so that
// -scale 36 is either good everywhere or refused everywhere with the same
// words. A command with a narrower limit of its own (bench olap numbers
// vertices in 32 bits) checks it after these, and says why.

// bound is the closed range [lo, hi] of a numeric flag.
type bound struct{ lo, hi float64 }

// maxScale is the largest -scale of every command: 2^40 vertices and,
// at the default edge factor, 2^44 edges. The memory check refuses a
// graph that does not fit long before.
const maxScale = 40

// flagBounds holds the range of every numeric flag of every command.
// checkBounds refuses a numeric flag missing here, so a new flag cannot
// go unchecked.
var flagBounds = map[string]bound{
	"scale":      {1, maxScale},
	"edgefactor": {1, 1 << 10},
	"ranks":      {1, 1 << 12},
	"goroutines": {1, 1 << 10},
	"count":      {0, 1 << 40},
	"duration":   {0, float64(7 * 24 * time.Hour)},
	"blocksize":  {0, 4096},
	"memory":     {0, 1 << 30}, // MiB: a PiB per rank
	"keys":       {1, 1 << 32},
	"iterations": {1, 1 << 20},
	"k":          {0, 1 << 10},
	"roots":      {0, 1 << 20},
	"mindegree":  {0, 1 << 40},
	"minweight":  {0, 1},
	"seed":       {0, 1<<64 - 1},
}

// checkBounds checks every numeric flag of fs, given or defaulted,
// against flagBounds.
func checkBounds(fs *flag.FlagSet) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		g, ok := f.Value.(flag.Getter)
		if !ok || err != nil {
			return
		}
		v, numeric := number(g.Get())
		if !numeric {
			return
		}
		b, ok := flagBounds[f.Name]
		switch {
		case !ok:
			err = fmt.Errorf("internal: numeric flag -%s has no bounds in flagBounds", f.Name)
		case v < b.lo || v > b.hi || math.IsNaN(v):
			err = fmt.Errorf("-%s must be in [%s, %s], not %s", f.Name, inTermsOf(g, b.lo), inTermsOf(g, b.hi), f.Value)
		}
	})
	return err
}

// number returns the value of a numeric flag as a float64.
func number(v any) (float64, bool) {
	switch v := v.(type) {
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case uint:
		return float64(v), true
	case uint64:
		return float64(v), true
	case float64:
		return v, true
	case time.Duration:
		return float64(v), true
	}
	return 0, false
}

// inTermsOf writes a bound x in the terms of the flag g: a duration or a
// plain number.
func inTermsOf(g flag.Getter, x float64) string {
	if _, ok := g.Get().(time.Duration); ok {
		return time.Duration(x).String()
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// checkParsed checks what fs.Parse leaves to a command that takes flags
// only: no argument that is no flag, and every numeric flag in bounds.
func checkParsed(fs *flag.FlagSet) error {
	if err := noArgs(fs); err != nil {
		return err
	}
	return checkBounds(fs)
}
