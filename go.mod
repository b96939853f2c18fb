module github.com/gdi-go/gdi

go 1.26.0

require github.com/cespare/xxhash/v2 v2.3.0

require github.com/anishathalye/porcupine v1.3.1

require golang.org/x/sys v0.49.0

require (
	github.com/HdrHistogram/hdrhistogram-go v1.4.0
	github.com/pkg/profile v1.7.0
	golang.org/x/term v0.47.0
)

require (
	github.com/felixge/fgprof v0.9.3 // indirect
	github.com/google/pprof v0.0.0-20211214055906-6f57359322fd // indirect
)
