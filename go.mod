module github.com/gdi-go/gdi

go 1.26.0

require github.com/cespare/xxhash/v2 v2.3.0

require github.com/anishathalye/porcupine v1.3.1

require golang.org/x/sys v0.49.0

require github.com/HdrHistogram/hdrhistogram-go v1.4.0
