GO ?= go

.PHONY: all build test vet fmt-check bench stress

all: build

build:
	$(GO) build ./...

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# The test command of README.md: static checks, then every test under the
# race detector (which also switches on internal/invariants).
test: vet fmt-check
	$(GO) test -race -short ./...

# Benchmarks of the hot paths, with allocation counts.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Long randomized runs: the stress tests without -short, several times.
stress:
	$(GO) test -race -count 3 -timeout 60m -run 'Stress|Linearizab|Metamorphic' ./...
