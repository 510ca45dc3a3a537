# Sightline: `make run` plays (the desktop game hosts a match with eight bots), `make test` proves it.
GO       ?= $(shell command -v go 2>/dev/null || echo /usr/local/go/bin/go)
FUZZTIME ?= 10s
BENCHTIME ?= 1s
PKGS     := ./...

.PHONY: all run serve web netbench test test-loaded vet build bench bench-go bench-pair cpu-pair startup-pair bench-table figures fuzz soak clean check-go deps

all: build

check-go:
	@$(GO) version >/dev/null 2>&1 || { echo "Go 1.26 is required: install it at /usr/local/go (https://go.dev/dl/)"; exit 1; }

## run: play: the desktop game hosts a match with eight bots (others on the LAN join with
## `go run ./cmd/game -join http://HOST:8080`).
run: check-go deps web
	$(GO) run ./cmd/game

## serve: a dedicated match server on :8080 (UDP 8443) with four bots; browsers play at http://HOST:8080/.
serve: check-go web
	$(GO) run ./cmd/server -addr :8080 -udp-port 8443 -bots 4

## web: the browser client (out/web: game.wasm and wasm_exec.js), served by the match server,
## with each precompressed beside it (.br: brotli quality 11; .gz: gzip -9; game.wasm.lzma:
## xz -9e, for browsers on plain http, where xz is installed; brotli of the
## 14 MB game.wasm takes about 30 s on 2 cores).
WEB_DIR := out/web
web: check-go
	mkdir -p $(WEB_DIR)
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w" -o $(WEB_DIR)/game.wasm ./wasm
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" $(WEB_DIR)/
	$(GO) run ./cmd/precompress $(WEB_DIR)/game.wasm $(WEB_DIR)/wasm_exec.js

## netbench: the bandwidth benchmark: 600 s of the model at 15% moving, then
## 120 s of the game's own traffic (the arena with bots, every player's view).
netbench: check-go
	$(GO) run ./cmd/netbench
	$(GO) run ./cmd/netbench -traffic arena

## deps: the Debian packages the desktop game needs to build (cgo, X11 and ALSA headers)
## and to copy to the clipboard (xclip),
## its window test needs to run (Xvfb) and the browser test drives (Chromium,
## headless). Installs what is missing when root.
DEB_DEPS := xvfb xauth xclip xz-utils nodejs nginx-light libasound2-dev libgl1-mesa-dev libx11-dev libxrandr-dev libxxf86vm-dev libxi-dev libxcursor-dev libxinerama-dev chromium nftables
deps:
	@command -v dpkg >/dev/null 2>&1 || { echo "deps: no dpkg; install the equivalents of: $(DEB_DEPS)"; exit 0; }; \
	  missing=$$(for p in $(DEB_DEPS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done | tr '\n' ' '); \
	  if [ -z "$$missing" ]; then exit 0; fi; \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "deps: installing $$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "deps: missing packages; run: sudo apt-get install -y $$missing"; exit 1; \
	  fi

## test: formatting, vet, the builds for other systems (the browser's packages;
## Windows: the game and the server; macOS: the server, as the game needs
## cgo and Apple's tools there), and every test with the race detector, but for the
## packages in ONE_GOROUTINE, whose tests run in one goroutine (matches and
## traffic on a virtual clock, nothing started beside them): the detector has
## no race to find there and would slow them several times over; they run
## beside the others, and their output follows. The desktop
## game's window test (game/desktop/xvfbtest) runs the game under xvfb-run.
## The tests wait for what the programs say or show, not for fixed times, so
## a busy machine makes them slower, not red: -timeout leaves the slowest
## packages (the browser's: about 5 minutes) room for that.
## The slowest packages are listed first, so that they start first and the
## two cores do not end the run on one of them alone. TEST_P test binaries
## (and builds) run at once: more than the cores, as the slowest packages
## spend much of their time waiting on programs they started (a match in
## network namespaces, a browser's page), a slot the next build or package
## can use.
MODULE := github.com/sightline-game/sightline
ONE_GOROUTINE := game/duel game/bots/brain netcode/traffic netcode/simrun netcode/view cmd/netbench
SLOWEST := ./wasm/browsertest ./cmd/loadtest ./game/desktop/xvfbtest ./game/server ./netcode/transport/webrtc ./netcode/relay ./game/protocol ./game/web
TEST_P ?= 3
## Every go command of the test, and the builds the tests make, use -trimpath:
## a build then does not depend on the clone's directory, so a fresh clone
## (CI's) takes the project's compiled packages from the build cache as a
## second run in one clone does, instead of compiling them again.
test: export GOFLAGS += -trimpath
test: check-go deps
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet $(PKGS)
	GOOS=js GOARCH=wasm $(GO) build ./game/client ./game/settings ./netcode/...
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null ./cmd/game ./cmd/server
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./cmd/server
	@echo "$(GO) test -count=1 -timeout 30m $(addprefix ./,$(ONE_GOROUTINE))  (beside the next; its output follows it)"
	@echo "SIGHTLINE_REQUIRE_XVFB=1 $(GO) test -race -p $(TEST_P) -count=1 -timeout 30m (every other package)"
	@one=$$(mktemp -t one-goroutine.XXXXXX); \
	  $(GO) test -count=1 -timeout 30m $(addprefix ./,$(ONE_GOROUTINE)) >$$one 2>&1 & single=$$!; \
	  SIGHTLINE_REQUIRE_XVFB=1 $(GO) test -race -p $(TEST_P) -count=1 -timeout 30m $$($(GO) list $(if $(filter ./...,$(PKGS)),$(SLOWEST)) $(PKGS) | grep -vxF $(addprefix -e $(MODULE)/,$(ONE_GOROUTINE))); raced=$$?; \
	  wait $$single; singled=$$?; cat $$one; rm -f $$one; \
	  [ $$raced -eq 0 ] && [ $$singled -eq 0 ]

## test-loaded: `make test` RUNS times in a row (default 5) with every core
## kept busy by a busy loop of another process: the suite's verdict must not
## depend on the machine's load (scripts/testloaded.sh).
test-loaded: check-go deps
	MAKE=$(MAKE) ./scripts/testloaded.sh

build: check-go deps
	mkdir -p bin
	$(GO) build ./...
	$(GO) build -o bin/netbench ./cmd/netbench
	$(GO) build -o bin/server ./cmd/server
	$(GO) build -o bin/loadtest ./cmd/loadtest
	$(GO) build -o bin/game ./cmd/game

## bench: Go benchmarks (ns, bytes, allocs) and the bandwidth tables of docs/01-snapshots-and-deltas.md.
bench: bench-go bench-table

bench-go: check-go
	$(GO) test -run '^$$' -bench . -benchtime $(BENCHTIME) ./netcode/... ./cmd/netbench/

## bench-pair: one benchmark beside the same benchmark of an older revision,
## run alternately, with the ratio of each pair (scripts/benchpair.sh: BASE,
## PKG, BENCH, METRIC, ROUNDS). By default the tick pipeline against the code
## of before protocol version 4.
bench-pair: check-go
	GO=$(GO) ./scripts/benchpair.sh

## cpu-pair: the server's CPU per client and tick (cmd/loadtest's
## server_cpu_us_per_client_tick, 32 clients, 20 s), this tree's server
## beside an older revision's, alternately (scripts/cpupair.sh: BASE, PAIRS).
## Needs curl and python3.
cpu-pair: check-go
	GO=$(GO) ./scripts/cpupair.sh

## startup-pair: the browser's start-up, this tree's build beside an older
## revision's (default HEAD), first visits in a fresh headless Chromium each,
## alternately (scripts/startuppair.sh: BASE, VISITS); the medians of each phase.
startup-pair: check-go
	GO=$(GO) ./scripts/startuppair.sh

bench-table: check-go
	$(GO) run ./cmd/netbench -table
	$(GO) run ./cmd/netbench -traffic arena -table

## figures: measures every figure the docs quote into docs/figures.md (generated:
## bandwidth tables, the figures seeded tests hold, game.wasm's sizes, browser
## start-up, server CPU per player beside FIGURES_BASE, duels, relay:
## TestInternet needs root) and rewrites their
## quotes in every *.md.
## FIGURES picks groups (e.g. FIGURES=wasm,bytes; all of them take about 20 min);
## FIGURES_TEST=1 adds `make test`'s wall time (about 10 min more).
FIGURES      ?= bytes,seeded,wasm,startup,cpu,duels,relay,internet
FIGURES_BASE ?= cea71ff
FIGURES_TEST ?=
figures: check-go
	$(GO) run ./cmd/figures -go $(GO) -figures $(FIGURES) -cpu-base $(FIGURES_BASE) $(if $(FIGURES_TEST),-test-time)

## fuzz: every fuzz target for FUZZTIME each, starting from its seed corpus
## (the f.Add seeds and testdata/fuzz/FuzzName/); a finding fails the target
## and is written to testdata/fuzz/FuzzName/ for the next plain `go test`.
## Go 1.26's coordinator can end a clean run with a bare "context deadline
## exceeded" (golang/go#75804): a failure that wrote no input is reported as
## that and the run goes on. PKGS narrows the packages.
fuzz: check-go
	@set -e; for pkg in $$($(GO) list $(PKGS)); do \
	  dir=$$($(GO) list -f '{{.Dir}}' $$pkg); \
	  for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$target"; \
	    before=$$(ls "$$dir/testdata/fuzz/$$target" 2>/dev/null | wc -l); \
	    if ! $(GO) test -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) $$pkg; then \
	      after=$$(ls "$$dir/testdata/fuzz/$$target" 2>/dev/null | wc -l); \
	      if [ "$$after" -gt "$$before" ]; then echo "fuzz: $$target found a failing input"; exit 1; fi; \
	      echo "fuzz: $$target stopped without a failing input (golang/go#75804): not a finding"; \
	    fi; \
	  done; \
	done

## soak: the server with 100 bots on free ports and 32 load-test clients for
## SOAK_SECONDS (default 300) at an 8000 B/s budget, each client losing
## SOAK_LOSS (10%) of unreliable messages both ways in bursts of SOAK_BURST (4);
## prints the result and the server's state before, during and after. Fails on
## any mismatched tick, tick overruns of 1% or more, or live heap after the
## clients left more than 10% off before they came. Needs curl and jq.
SOAK_SECONDS ?= 300
SOAK_LOSS    ?= 0.1
SOAK_BURST   ?= 4
soak: check-go
	mkdir -p bin
	$(GO) build -o bin/server ./cmd/server
	$(GO) build -o bin/loadtest ./cmd/loadtest
	BIN=bin BOTS=100 CLIENTS=32 BUDGET=8000 SOAK_SECONDS=$(SOAK_SECONDS) LOSS=$(SOAK_LOSS) BURST=$(SOAK_BURST) ./scripts/soak.sh

clean:
	rm -rf bin out
