package main

import (
	"fmt"

	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma/launch"
)

// checkMemory refuses, before anything is allocated, a database whose
// blocks would not fit in this machine's memory: p's MemoryPerRank for
// each rank this process runs (all of them on local ranks, one under
// mpirun). what names the flags that decide it, for the message.
func checkMemory(p any, ranks int, what string) error {
	gp, ok := p.(*gdirma.Params)
	if !ok || gp.MemoryPerRank <= 0 {
		return nil
	}
	have := machineMemory()
	here := uint64(ranks)
	if launch.Backend() == "mpi" {
		here = 1
	}
	need := uint64(gp.MemoryPerRank) * here
	if have == 0 || need <= have {
		return nil
	}
	return fmt.Errorf("%s need about %s of block memory in this process (%s a rank), more than the %s of this machine: give a smaller -scale, fewer -ranks or less -memory, or run on more machines under mpirun",
		what, sizeString(need), sizeString(uint64(gp.MemoryPerRank)), sizeString(have))
}

// sizeString writes a byte count with a binary unit.
func sizeString(n uint64) string {
	const units = "KMGTPE"
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	f, i := float64(n)/1024, 0
	for f >= 1024 && i < len(units)-1 {
		f, i = f/1024, i+1
	}
	return fmt.Sprintf("%.1f %ciB", f, units[i])
}
