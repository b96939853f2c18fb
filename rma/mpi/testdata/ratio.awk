# ratio.awk reads the output of the Go benchmarks (first file) and of
# latency.c (second file) and prints, for each operation measured by both
# with 2 ranks, the best ns/op of each and their ratio Go/C.
function best(file, name, v) {
	if (!((file, name) in b) || v + 0 < b[file, name] + 0) b[file, name] = v
}
$1 ~ /^Benchmark/ {
	for (i = 2; i < NF; i++) if ($(i + 1) == "ns/op") v = $i
	name = $1
	sub(/-[0-9]+$/, "", name)
	if (FILENAME == ARGV[1]) {
		# BenchmarkWindowGet8/ranks=2 -> Get8/ranks=2
		sub(/^BenchmarkWindow/, "", name)
		best("go", name, v)
	} else {
		sub(/^BenchmarkC\//, "", name)
		best("c", name, v)
		if (!(name in seen)) { seen[name] = 1; order[n++] = name }
	}
}
END {
	printf "%-16s %12s %12s %8s\n", "op", "Go ns/op", "C ns/op", "Go/C"
	for (i = 0; i < n; i++) {
		k = order[i]
		if (("go", k) in b) printf "%-16s %12.1f %12.1f %8.2f\n", k, b["go", k], b["c", k], b["go", k] / b["c", k]
	}
}
