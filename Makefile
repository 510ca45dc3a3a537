# Sightline: make run plays (for now: runs the bandwidth benchmark), make test proves it.
GO       ?= $(shell command -v go 2>/dev/null || echo /usr/local/go/bin/go)
FUZZTIME ?= 10s
BENCHTIME ?= 1s
PKGS     := ./...

.PHONY: all run netbench test vet build bench bench-go bench-table fuzz clean check-go

all: build

check-go:
	@$(GO) version >/dev/null 2>&1 || { echo "Go 1.26 is required: install it at /usr/local/go (https://go.dev/dl/)"; exit 1; }

## run: a match server on :8080 (UDP 8443) with four bots; point a client or cmd/loadtest at it.
run: check-go
	$(GO) run ./cmd/server -addr :8080 -udp-port 8443 -bots 4

## netbench: the bandwidth benchmark, 600 s of traffic at 15% moving.
netbench: check-go
	$(GO) run ./cmd/netbench

## test: formatting, vet, and every test with the race detector.
test: check-go
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet $(PKGS)
	GOOS=js GOARCH=wasm $(GO) build ./game/client ./netcode/...
	$(GO) test -race -count=1 $(PKGS)

build: check-go
	mkdir -p bin
	$(GO) build ./...
	$(GO) build -o bin/netbench ./cmd/netbench
	$(GO) build -o bin/server ./cmd/server
	$(GO) build -o bin/loadtest ./cmd/loadtest

## bench: Go benchmarks (ns, bytes, allocs) and the README's bandwidth table.
bench: bench-go bench-table

bench-go: check-go
	$(GO) test -run '^$$' -bench . -benchtime $(BENCHTIME) ./netcode/...

bench-table: check-go
	$(GO) run ./cmd/netbench -table

## fuzz: every fuzz target for FUZZTIME each.
fuzz: check-go
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$target"; \
	    $(GO) test -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

clean:
	rm -rf bin
