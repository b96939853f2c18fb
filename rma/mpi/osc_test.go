package mpi

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/rma"
)

// TestOscRefusal: the one-sided components that cannot serve rma/mpi are
// refused with a message that names settings that work; the others, and
// Open MPI's own choice, are let through.
func TestOscRefusal(t *testing.T) {
	for _, c := range []struct {
		osc, btl, shm, nodeSize string
		level                   threadLevel
		refused                 bool
	}{
		{"", "", "", "", threadSerialized, false},
		{"ucx", "tcp,self", "0", "", threadSerialized, false},
		{"sm", "", "", "", threadSerialized, false},
		{"sm", "", "0", "", threadSerialized, true},
		{"sm", "", "", "2", threadSerialized, true},
		{"ucx,sm", "", "", "2", threadSerialized, false},
		{"^pt2pt", "", "", "", threadSerialized, false},
		{"pt2pt", "tcp,self", "0", "", threadSerialized, false},
		{"pt2pt", "tcp,self", "", "", threadMultiple, true},
		{"pt2pt", "vader,self", "0", "", threadSerialized, false},
		{"pt2pt", "vader,self", "", "", threadMultiple, true},
		{"rdma", "tcp,self", "", "", threadSerialized, true},
		{"rdma", "vader,self", "", "", threadSerialized, true},
		{"rdma", "", "", "", threadSerialized, true},
		{"pt2pt,ucx", "", "", "", threadSerialized, false},
	} {
		t.Setenv("GDI_MPI_ALLOW_OSC", "")
		t.Setenv("OMPI_MCA_osc", c.osc)
		t.Setenv("OMPI_MCA_btl", c.btl)
		t.Setenv("GDI_MPI_SHM", c.shm)
		t.Setenv("GDI_MPI_NODE_SIZE", c.nodeSize)
		err := oscRefusal(c.level)
		if (err != nil) != c.refused {
			t.Errorf("osc %q, btl %q, GDI_MPI_SHM %q, GDI_MPI_NODE_SIZE %q, thread level %v: %v, want refused %v", c.osc, c.btl, c.shm, c.nodeSize, c.level, err, c.refused)
		}
		if err != nil && !strings.Contains(err.Error(), "--mca osc ucx") {
			t.Errorf("osc %q: the refusal names no working setting: %v", c.osc, err)
		}
	}
}

// TestOscAllowed: GDI_MPI_ALLOW_OSC lets osc rdma try, where a BTL can
// serve it.
func TestOscAllowed(t *testing.T) {
	t.Setenv("GDI_MPI_ALLOW_OSC", "rdma")
	t.Setenv("OMPI_MCA_osc", "rdma")
	t.Setenv("OMPI_MCA_btl", "openib,self")
	if err := oscRefusal(threadSerialized); err != nil {
		t.Errorf("osc rdma allowed, btl openib: %v", err)
	}
	t.Setenv("OMPI_MCA_btl", "tcp,self")
	if err := oscRefusal(threadSerialized); err == nil {
		t.Errorf("osc rdma allowed, btl tcp: not refused")
	}
}

// TestOscDefault: where Open MPI chooses the one-sided component, osc
// rdma, which crashes, is excluded from its choice, unless
// GDI_MPI_ALLOW_OSC names it; a list of components to use is kept.
func TestOscDefault(t *testing.T) {
	for _, c := range []struct{ osc, allow, want string }{
		{"", "", "^rdma"},
		{"^pt2pt", "", "^pt2pt,rdma"},
		{"^rdma,pt2pt", "", "^rdma,pt2pt"},
		{"ucx,sm", "", "ucx,sm"},
		{"", "rdma", ""},
		{"^pt2pt", "rdma", "^pt2pt"},
	} {
		t.Setenv("GDI_MPI_ALLOW_OSC", c.allow)
		t.Setenv("OMPI_MCA_osc", c.osc)
		oscDefault()
		if got := os.Getenv("OMPI_MCA_osc"); got != c.want {
			t.Errorf("OMPI_MCA_osc %q, GDI_MPI_ALLOW_OSC %q: %q after oscDefault, want %q", c.osc, c.allow, got, c.want)
		}
	}
}

// TestNodeSettings: GDI_MPI_SHM and GDI_MPI_NODE_SIZE are read as the
// node layout's doc says, and a node size that is not a positive number
// is refused with rma.ErrArgument.
func TestNodeSettings(t *testing.T) {
	for _, c := range []struct {
		shm, size string
		want      bool
		nodeSize  int
		bad       bool
	}{
		{"", "", true, 0, false},
		{"0", "", false, 0, false},
		{"1", "2", true, 2, false},
		{"", "0", false, 0, true},
		{"", "-3", false, 0, true},
		{"", "two", false, 0, true},
	} {
		t.Setenv("GDI_MPI_SHM", c.shm)
		t.Setenv("GDI_MPI_NODE_SIZE", c.size)
		want, nodeSize, err := nodeSettings()
		if c.bad {
			if !errors.Is(err, rma.ErrArgument) {
				t.Errorf("GDI_MPI_NODE_SIZE=%q: error %v, want rma.ErrArgument", c.size, err)
			}
			continue
		}
		if err != nil || want != c.want || nodeSize != c.nodeSize {
			t.Errorf("GDI_MPI_SHM=%q GDI_MPI_NODE_SIZE=%q: (%v, %d, %v), want (%v, %d, nil)", c.shm, c.size, want, nodeSize, err, c.want, c.nodeSize)
		}
	}
}

// TestThreadSetting: GDI_MPI_THREAD picks the thread level, serialized
// unless set, and anything else is refused with rma.ErrArgument.
func TestThreadSetting(t *testing.T) {
	for _, c := range []struct {
		v    string
		want threadLevel
		bad  bool
	}{
		{"", threadSerialized, false},
		{"serialized", threadSerialized, false},
		{"multiple", threadMultiple, false},
		{"MULTIPLE", 0, true},
		{"funneled", 0, true},
	} {
		t.Setenv("GDI_MPI_THREAD", c.v)
		got, err := threadSetting()
		if c.bad {
			if !errors.Is(err, rma.ErrArgument) {
				t.Errorf("GDI_MPI_THREAD=%q: error %v, want rma.ErrArgument", c.v, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("GDI_MPI_THREAD=%q: (%v, %v), want (%v, nil)", c.v, got, err, c.want)
		}
	}
}
