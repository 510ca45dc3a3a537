#!/bin/sh
# duels.sh runs cmd/loadtest -duel against a fresh cmd/server (no bots, no
# creatures) for each case on its command line and prints one JSON line a
# duel, each with the case's name: the duel table of docs/04-prediction-and-shots-at-latency.md comes from it.
#
#   SECONDS_COUNTED=30 scripts/duels.sh "name|server flags|loadtest flags" ...
#
# e.g. scripts/duels.sh "75ms|-max-rewind 333ms|-latency 75ms -jitter 10ms -loss 0.01"
# PORT is the server's HTTP port (default 8193). Needs curl.
set -eu
bin=$(mktemp -d)
trap 'kill $(cat "$bin/pid" 2>/dev/null) 2>/dev/null || true; rm -rf "$bin"' EXIT
go build -o "$bin/server" ./cmd/server
go build -o "$bin/loadtest" ./cmd/loadtest
port=${PORT:-8193}
for c in "$@"; do
	name=${c%%|*}
	rest=${c#*|}
	srvflags=${rest%%|*}
	ltflags=${rest#*|}
	# shellcheck disable=SC2086
	"$bin/server" -addr 127.0.0.1:$port -udp-port 0 -bots 0 -creatures 0 -announce=false $srvflags >"$bin/server.log" 2>&1 &
	echo $! >"$bin/pid"
	# Wait for the server to answer (a loaded machine may take seconds).
	for _ in $(seq 100); do
		curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
		sleep 0.1
	done
	# shellcheck disable=SC2086
	out=$("$bin/loadtest" -url http://127.0.0.1:$port -duel -seconds "${SECONDS_COUNTED:-30}" -json $ltflags | tr -d "\n") || true
	kill "$(cat "$bin/pid")" 2>/dev/null || true
	wait 2>/dev/null || true
	printf '{"case":"%s","server":"%s","loadtest":"%s","result":%s}\n' "$name" "$srvflags" "$ltflags" "${out:-null}"
done
