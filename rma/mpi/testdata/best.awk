# best.awk prints, for each benchmark in go test -bench output, the lowest
# ns/op of all its runs, in the order the benchmarks first appear.
$1 ~ /^Benchmark/ {
	for (i = 2; i < NF; i++) {
		if ($(i + 1) == "ns/op") {
			name = $1
			sub(/-[0-9]+$/, "", name)
			if (!(name in best)) { order[n++] = name; best[name] = $i }
			else if ($i + 0 < best[name] + 0) best[name] = $i
		}
	}
}
END { for (i = 0; i < n; i++) printf "%-36s %10.1f ns/op\n", order[i], best[order[i]] }
