package gdirma

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/gdirma/internal/checkpoint"
	"github.com/gdi-go/gdi/gdirma/internal/redolog"
	"github.com/gdi-go/gdi/internal/vfs"
	"github.com/gdi-go/gdi/internal/vfs/vfstest"
)

// TestEveryByteFlipped makes a small checkpoint with a synced log (a
// label and three commits, logOneRankWith), then flips each byte of the manifest, the
// rank file and the log in turn (every seventh of the rank file in
// -short): InspectCheckpoint, which reads them as a restore does, must
// name the file in an error, or else the flip must be harmless: the log
// reads as the same records.
func TestEveryByteFlipped(t *testing.T) {
	const dir = "/flip/log"
	f := vfstest.New("/flip")
	defer SetFS(f)()
	logOneRankWith(t, Params{BlockSize: 64, MemoryPerRank: 1 << 10, DHTEntries: 64, DHTBuckets: 16, IndexMemoryPerRank: 4 * indexNodeSize, Log: LogSync, LogDir: dir})
	m, err := readManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	gd := checkpoint.GenDir(dir, m.Generation)
	logPath := filepath.Join(gd, redolog.FileName(0))
	want, err := redolog.ReadLog(fsys, logPath, 0, 1)
	if err != nil || len(want.Records) != 4 {
		t.Fatalf("the log: %d records, %v; want 4", len(want.Records), err)
	}
	for _, c := range []struct {
		path   string
		stride int
	}{
		{filepath.Join(dir, checkpoint.ManifestName), 1},
		{logPath, 1},
		{filepath.Join(gd, checkpoint.RankFileName(0)), 1},
	} {
		orig, err := vfs.ReadFile(f, c.path)
		if err != nil {
			t.Fatal(err)
		}
		stride := c.stride
		if testing.Short() && strings.HasSuffix(c.path, ".ckpt") {
			stride = 7
		}
		for i := 0; i < len(orig); i += stride {
			b := []byte(string(orig))
			b[i] ^= 0xff
			if err := vfs.WriteFileSync(f, c.path, b); err != nil {
				t.Fatal(err)
			}
			_, err := InspectCheckpoint(dir)
			switch {
			case err != nil && !strings.Contains(err.Error(), c.path):
				t.Fatalf("%s, byte %d flipped: %v, an error that does not name the file", c.path, i, err)
			case err == nil && c.path != logPath:
				t.Fatalf("%s, byte %d flipped: not detected", c.path, i)
			case err == nil:
				got, _ := redolog.ReadLog(fsys, logPath, 0, 1)
				if !reflect.DeepEqual(got.Records, want.Records) {
					t.Fatalf("%s, byte %d flipped: not detected, and the log reads as other records", c.path, i)
				}
			}
		}
		if err := vfs.WriteFileSync(f, c.path, orig); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := InspectCheckpoint(dir); err != nil {
		t.Fatalf("the checkpoint put back: %v", err)
	}
}
