#!/usr/bin/env bash
# soak: a match server with BOTS bots on free ports, CLIENTS load-test clients
# playing for SOAK_SECONDS against it; prints the load test's result and the
# server's heap (expvar memstats) before and after. Fails if any client did
# not connect, any tick mismatched or went over budget (loadtest's exit code),
# or nothing was verified. Needs curl and jq.
set -euo pipefail
BIN=${BIN:-bin}
BOTS=${BOTS:-100}
CLIENTS=${CLIENTS:-32}
SOAK_SECONDS=${SOAK_SECONDS:-300}
BUDGET=${BUDGET:-8000}

free_port() { # a free TCP port on loopback
	local p
	for _ in $(seq 50); do
		p=$((20000 + RANDOM % 40000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
	done
	echo "soak: no free port" >&2; exit 1
}
PORT=$(free_port)
URL="http://127.0.0.1:$PORT"
LOG=$(mktemp -t soak-server.XXXXXX)

"$BIN/server" -addr "127.0.0.1:$PORT" -udp-port 0 -bots "$BOTS" -max-clients "$((CLIENTS + 8))" -offer-rate 50 -offer-burst 50 \
	-rate "$BUDGET" -announce=false -log-level warn >"$LOG" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -f "$LOG"' EXIT

for _ in $(seq 100); do
	curl -fsS "$URL/healthz" >/dev/null 2>&1 && break
	kill -0 "$SERVER" 2>/dev/null || { echo "soak: server exited:"; cat "$LOG"; exit 1; }
	sleep 0.1
done
curl -fsS "$URL/healthz" >/dev/null

heap() { # $1: label
	curl -fsS "$URL/debug/vars" | jq -c --arg at "$1" '{at: $at, clients: .match.Clients, tick: .match.Tick,
		heap_alloc_MiB: (.memstats.HeapAlloc/1048576*10|round/10), heap_inuse_MiB: (.memstats.HeapInuse/1048576*10|round/10),
		heap_sys_MiB: (.memstats.HeapSys/1048576*10|round/10), heap_objects: .memstats.HeapObjects, num_gc: .memstats.NumGC,
		max_tick_ms: (.match.MaxTick/1e6), bad_inputs: .match.BadInputs, congested: .match.Congested}'
}
sleep 2 # let the bots join
heap before
rc=0
OUT=$("$BIN/loadtest" -url "$URL" -clients "$CLIENTS" -seconds "$SOAK_SECONDS" -budget "$BUDGET" -json) || rc=$?
echo "$OUT"
heap after
if [ "$rc" -ne 0 ]; then echo "soak: FAIL (loadtest exit $rc)"; exit "$rc"; fi
if [ "$(echo "$OUT" | jq '.mismatched_ticks')" != 0 ] || [ "$(echo "$OUT" | jq '.verified_ticks > 0')" != true ]; then
	echo "soak: FAIL (mismatched or unverified ticks)"; exit 1
fi
kill -0 "$SERVER" 2>/dev/null || { echo "soak: FAIL (server died)"; cat "$LOG"; exit 1; }
echo "soak: PASS"
