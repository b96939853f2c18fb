package main

import (
	"os"
	"testing"
)

func Example() {
	if err := run(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// people over 30 who own a red car: 5
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
