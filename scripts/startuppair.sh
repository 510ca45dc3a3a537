#!/usr/bin/env bash
# startuppair: the browser's start-up, this working tree's build beside an
# older revision's, each served by its own server on loopback and opened in
# a fresh headless Chromium (nothing cached) alternately, VISITS times each
# (BenchmarkStartupPair in wasm/browsertest). Prints every visit's phases, then
# each phase's median for both sides. The VM's speed drifts, so only the
# two columns of one run compare.
#
#   BASE    the older revision (default: HEAD, the last commit)
#   VISITS  first visits of each side (default 6)
set -euo pipefail
BASE=${BASE:-HEAD}
VISITS=${VISITS:-6}
GO=${GO:-go}

tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/base" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git worktree add --detach -q "$tmp/base" "$BASE"

# build SRC OUT: SRC's server and browser client into OUT, as `make web`
# builds and compresses the client.
build() {
	local src=$1 out=$2
	mkdir -p "$out/web"
	(cd "$src" &&
		"$GO" build -o "$out/server" ./cmd/server &&
		GOOS=js GOARCH=wasm GOFLAGS= "$GO" build -trimpath -ldflags="-s -w" -o "$out/web/game.wasm" ./wasm &&
		cp "$("$GO" env GOROOT)/lib/wasm/wasm_exec.js" "$out/web/" &&
		"$GO" run ./cmd/precompress "$out/web/game.wasm" "$out/web/wasm_exec.js")
}
build "$tmp/base" "$tmp/then"
build "$PWD" "$tmp/now"
echo "then: $(git -C "$tmp/base" rev-parse --short HEAD); now: the working tree"
SIGHTLINE_STARTUP_PAIR="$tmp/then,$tmp/now" SIGHTLINE_STARTUP_VISITS=$VISITS \
	"$GO" test -count=1 -v -timeout 60m -run '^$' -bench 'BenchmarkStartupPair$' -benchtime 1x ./wasm/browsertest |
	grep -E 'startuppair_test.go|Benchmark|^(--- |ok|FAIL)'
