package main

import (
	"flag"
	"time"
)

// flagValues returns the value of every flag of fs, given or defaulted,
// so that a report says how to reproduce its run: numbers and booleans as
// such, durations and strings as written on a command line.
func flagValues(fs *flag.FlagSet) map[string]any {
	m := make(map[string]any)
	fs.VisitAll(func(f *flag.Flag) {
		g, ok := f.Value.(flag.Getter)
		if _, isDuration := g.Get().(time.Duration); !ok || isDuration {
			m[f.Name] = f.Value.String()
			return
		}
		m[f.Name] = g.Get()
	})
	return m
}
