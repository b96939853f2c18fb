package vfstest

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/gdi-go/gdi/internal/vfs"
)

func write(t *testing.T, f *FS, name, data string, sync bool) {
	t.Helper()
	h, err := f.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Write([]byte(data)); err != nil {
		t.Fatal(err)
	}
	if sync {
		if err := h.Sync(); err != nil {
			t.Fatal(err)
		}
	}
	h.Close()
}

func content(f *FS, name string) (string, bool) {
	b, err := vfs.ReadFile(f, name)
	return string(b), err == nil
}

// A name is durable only after SyncDir; data only after Sync.
func TestDurabilityRules(t *testing.T) {
	f := New("/d")
	write(t, f, "/d/a", "synced", true)
	if err := f.SyncDir("/d"); err != nil {
		t.Fatal(err)
	}
	write(t, f, "/d/tmp", "new", true)
	if err := f.Rename("/d/tmp", "/d/a"); err != nil {
		t.Fatal(err)
	}
	write(t, f, "/d/b", "unsynced", false)
	if got, _ := content(f.Image(DropAll, nil), "/d/a"); got != "synced" {
		t.Errorf("DropAll: a rename not followed by SyncDir survived: %q", got)
	}
	if _, ok := content(f.Image(DropAll, nil), "/d/b"); ok {
		t.Errorf("DropAll: a file created without SyncDir survived")
	}
	img := f.Image(KeepAll, nil)
	if got, _ := content(img, "/d/a"); got != "new" {
		t.Errorf("KeepAll: a = %q, want new", got)
	}
	if got, _ := content(img, "/d/b"); got != "unsynced" {
		t.Errorf("KeepAll: b = %q, want unsynced", got)
	}
	if err := f.SyncDir("/d"); err != nil {
		t.Fatal(err)
	}
	if got, ok := content(f.Image(DropAll, nil), "/d/b"); !ok || got != "" {
		t.Errorf("DropAll after SyncDir: b = %q, %v; want the name with no data", got, ok)
	}
}

// Torn keeps the synced data and at most a prefix of the rest, and the
// journal's prefix.
func TestTorn(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	f := New("/d")
	h, _ := f.Create("/d/log")
	h.Write([]byte("0123456789"))
	h.Sync()
	h.Write([]byte("abcdefghij"))
	f.SyncDir("/d")
	torn := 0
	for range 200 {
		got, ok := content(f.Image(Torn, rng), "/d/log")
		if !ok || len(got) < 10 || len(got) > 20 || got[:10] != "0123456789" {
			t.Fatalf("torn image %q, %v: synced data lost or file grew", got, ok)
		}
		if got[10:] != "abcdefghij"[:len(got)-10] {
			torn++
		}
	}
	if torn == 0 {
		t.Errorf("no image of 200 tore the unsynced data")
	}
}

func TestSpaceAndFailpoints(t *testing.T) {
	f := New("/d")
	f.SetSpace(4)
	h, _ := f.Create("/d/x")
	n, err := h.Write([]byte("123456"))
	if n != 4 || !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("write past the space: %d, %v; want 4, ENOSPC", n, err)
	}
	if err := h.Truncate(1); err != nil {
		t.Fatal(err)
	}
	if n, err := h.Write([]byte("abc")); n != 3 || err != nil {
		t.Errorf("write after freeing space: %d, %v", n, err)
	}
	f.FailNext(OpSync, 2, syscall.EIO)
	if err := h.Sync(); err != nil {
		t.Errorf("first sync: %v", err)
	}
	var pe *fs.PathError
	if err := h.Sync(); !errors.As(err, &pe) || !errors.Is(err, syscall.EIO) || pe.Path != "/d/x" {
		t.Errorf("second sync: %v, want EIO naming /d/x", err)
	}
	f.CrashAfter(1)
	if err := f.SyncDir("/d"); err != nil {
		t.Errorf("the operation before the crash point: %v", err)
	}
	if _, err := h.Write([]byte("z")); !errors.Is(err, ErrCrashed) || !f.Crashed() {
		t.Errorf("write after the crash point: %v", err)
	}
	if got, _ := content(f.Image(KeepAll, nil), "/d/x"); got != "1abc" {
		t.Errorf("image after the crash: %q, want 1abc", got)
	}
}

func TestHoldWrites(t *testing.T) {
	f := New("/d")
	h, _ := f.Create("/d/x")
	release := f.HoldWrites()
	done := make(chan struct{})
	go func() {
		h.Write([]byte("held"))
		close(done)
	}()
	select {
	case <-done:
		t.Fatal("a write went through while writes were held")
	case <-time.After(20 * time.Millisecond):
	}
	release()
	<-done
	if got, _ := content(f, "/d/x"); got != "held" {
		t.Errorf("after the release: %q", got)
	}
}
