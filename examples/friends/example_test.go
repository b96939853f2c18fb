package main

import "os"

func Example() {
	if err := run(os.Stdout, "p1"); err != nil {
		panic(err)
	}
	// Output:
	// Barbara Liskov
	// Edsger Dijkstra
	// Frances Allen
}
