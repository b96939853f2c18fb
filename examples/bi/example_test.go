package main

import (
	"os"
	"testing"

	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
)

func Example() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// people over 30 who own a red car: 5
	// the same query through the Cypher engine: 5
}

// TestEngineMatchesHandWritten runs Listing 3 by hand and through the
// Cypher engine on the example's data, on each backend, and requires the
// same count.
func TestEngineMatchesHandWritten(t *testing.T) {
	defer func(d gdi.Driver) { driver = d }(driver)
	for _, d := range []gdi.Driver{gdirma.Driver{}, refdb.Driver{}} {
		driver = d
		hand, engine, err := counts()
		if err != nil {
			t.Fatalf("%T: %v", d, err)
		}
		if hand != engine || hand != 5 {
			t.Errorf("%T: hand-written count %d, engine %d, want 5", d, hand, engine)
		}
	}
}

// TestExpectedCount recomputes the answer of the example from the rules of
// the generated data, so the Output above is not just what the code said.
func TestExpectedCount(t *testing.T) {
	want := 0
	for j := 0; j < ranks*peoplePerRank; j++ {
		if personAge(j) > 30 && j%3 == 0 {
			want++
		}
	}
	if want != 5 {
		t.Fatalf("the data gives %d red car owners over 30, the example output says 5", want)
	}
}
