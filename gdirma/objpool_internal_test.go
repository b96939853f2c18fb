package gdirma

import (
	"reflect"
	"slices"
	"testing"

	"github.com/gdi-go/gdi/bgdl"
)

// TestLoadedPoolClearsEveryField pins the fields of loadedObj: loadedPool.get
// clears them one by one (all but small), so a field added to loadedObj
// must be added there too, or it would carry state from one transaction
// into the next. It also checks that a copy taken again is clear.
func TestLoadedPoolClearsEveryField(t *testing.T) {
	var names []string
	ty := reflect.TypeFor[loadedObj]()
	for i := range ty.NumField() {
		names = append(names, ty.Field(i).Name)
	}
	if want := []string{"o", "r", "orig", "chain", "small"}; !slices.Equal(names, want) {
		t.Fatalf("loadedObj has fields %v, loadedPool.get clears %v (and keeps small): update get", names, want[:4])
	}
	var p loadedPool
	c := p.get()
	c.r.version, c.orig.version, c.chain[2], c.o.dirty = 7, 8, 9, true
	p.put(&c.o)
	for range 10 { // sync.Pool may drop it; a new one is clear anyway
		d := p.get()
		if d.r.version != 0 || d.orig.version != 0 || d.chain != [4]bgdl.DPtr{} || d.o.dirty || d.o.room != d {
			t.Fatalf("a copy taken again is not clear: %+v %+v %v %+v", d.r.version, d.orig.version, d.chain, d.o)
		}
	}
}
