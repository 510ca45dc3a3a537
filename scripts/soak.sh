#!/usr/bin/env bash
# soak: a match server with BOTS bots on free ports, CLIENTS load-test clients
# playing for SOAK_SECONDS against it through conditioners that lose LOSS of
# the unreliable messages in bursts of BURST each way; prints the load test's
# result and samples of the server's state (/debug/vars) before, during and
# after. Fails if any client did not connect, any tick mismatched or a client
# went over budget (loadtest's exit code), nothing was verified, ticks
# overran the tick period in 1% or more of the soak's ticks, or the live
# heap after the clients left differs from before they came by over 10%.
# Needs curl and jq.
set -euo pipefail
BIN=${BIN:-bin}
BOTS=${BOTS:-100}
CLIENTS=${CLIENTS:-32}
SOAK_SECONDS=${SOAK_SECONDS:-300}
BUDGET=${BUDGET:-8000}
# What each load-test client's own conditioner does to its link, both ways.
LOSS=${LOSS:-0.1}
BURST=${BURST:-4}
LATENCY=${LATENCY:-20ms}
JITTER=${JITTER:-10ms}

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
# The counters, on the server's own loopback listener (-metrics-addr).
METRICS_PORT=$(free_port)
METRICS="http://127.0.0.1:$METRICS_PORT"
LOG=$(mktemp -t soak-server.XXXXXX)

"$BIN/server" -addr "127.0.0.1:$PORT" -udp-port 0 -bots "$BOTS" -max-clients "$((CLIENTS + 8))" -offer-rate 50 -offer-burst 50 -debug-gc \
	-metrics-addr "127.0.0.1:$METRICS_PORT" \
	-rate "$BUDGET" -announce=false -log-level warn >"$LOG" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -f "$LOG"' EXIT

for _ in $(seq 100); do
	curl -fsS "$URL/healthz" >/dev/null 2>&1 && break
	kill -0 "$SERVER" 2>/dev/null || { echo "soak: server exited:"; cat "$LOG"; exit 1; }
	sleep 0.1
done
curl -fsS "$URL/healthz" >/dev/null

# sample: one line of the server's state. $1: label.
sample() {
	curl -fsS "$METRICS/debug/vars" | jq -c --arg at "$1" '{at: $at, clients: .match.Clients, tick: .match.Tick,
		overruns: .match.Overruns, max_tick_ms: (.match.MaxTick/1e6*10|round/10),
		live_heap_MiB: (.heap.live_bytes/1048576*10|round/10), heap_inuse_MiB: (.memstats.HeapInuse/1048576*10|round/10),
		gc_cycles: .heap.gc_cycles, bad_inputs: .match.BadInputs, bad_acks: .match.BadAcks, congested: .match.Congested}'
}
# collect: a full collection on the server (-debug-gc), so that the live
# heap describes the match as it is now.
collect() { curl -fsS -X POST "$METRICS/debug/gc" >/dev/null; }

sleep 5 # let the bots join and settle
collect
BEFORE=$(sample before)
echo "$BEFORE"

OUTF=$(mktemp -t soak-out.XXXXXX)
trap 'kill "${LOADTEST:-}" "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -f "$LOG" "$OUTF"' EXIT
"$BIN/loadtest" -url "$URL" -metrics "$METRICS" -clients "$CLIENTS" -seconds "$SOAK_SECONDS" -budget "$BUDGET" \
	-loss "$LOSS" -burst "$BURST" -latency "$LATENCY" -jitter "$JITTER" -json >"$OUTF" &
LOADTEST=$!
# One sample every SAMPLE_EVERY seconds while the clients play.
SAMPLE_EVERY=${SAMPLE_EVERY:-30}
n=0
while kill -0 "$LOADTEST" 2>/dev/null; do
	sleep 1
	n=$((n + 1))
	if [ $((n % SAMPLE_EVERY)) -eq 0 ] && kill -0 "$LOADTEST" 2>/dev/null; then sample "${n}s"; fi
done
rc=0
wait "$LOADTEST" || rc=$?
OUT=$(cat "$OUTF")
echo "$OUT"
[ -n "$OUT" ] || { echo "soak: FAIL (loadtest printed nothing, exit $rc)"; exit 1; }

# The load test's clients have left: wait for the server to drop them all.
for _ in $(seq 200); do
	[ "$(curl -fsS "$METRICS/debug/vars" | jq '.match.Clients')" -le "$BOTS" ] && break
	sleep 0.1
done
collect
AFTER=$(sample after)
echo "$AFTER"

fail=0
if [ "$rc" -ne 0 ]; then echo "soak: loadtest exit $rc (a client failed to connect, a tick mismatched or a client went over budget)"; fail=1; fi
if [ "$(echo "$OUT" | jq '.mismatched_ticks')" != 0 ] || [ "$(echo "$OUT" | jq '.verified_ticks > 0')" != true ]; then
	echo "soak: mismatched or unverified ticks"; fail=1
fi
# Tick overruns during the soak, as a share of its ticks: under 1%.
overrun=$(jq -n --argjson b "$BEFORE" --argjson a "$AFTER" '($a.overruns - $b.overruns) / ([($a.tick - $b.tick), 1] | max)')
# Live heap after the clients left against before they came: within 10%.
growth=$(jq -n --argjson b "$BEFORE" --argjson a "$AFTER" '($a.live_heap_MiB - $b.live_heap_MiB) / $b.live_heap_MiB')
echo "soak: tick overruns $(jq -n --argjson x "$overrun" '$x*10000|round/100')% of ticks; live heap $(echo "$BEFORE" | jq .live_heap_MiB) MiB before, $(echo "$AFTER" | jq .live_heap_MiB) MiB after ($(jq -n --argjson x "$growth" '$x*1000|round/10')%)"
if [ "$(jq -n --argjson x "$overrun" '$x >= 0.01')" = true ]; then echo "soak: tick overruns over 1%"; fail=1; fi
if [ "$(jq -n --argjson x "$growth" '($x|fabs) > 0.10')" = true ]; then echo "soak: live heap changed by more than 10%"; fail=1; fi
kill -0 "$SERVER" 2>/dev/null || { echo "soak: server died"; cat "$LOG"; fail=1; }
# When the ticks that overran came (the server logs them at most every 10 s).
if grep -q "tick overran" "$LOG"; then
	echo "soak: the server's overrun warnings:"
	grep "tick overran" "$LOG" | tail -n 20
fi
if [ "$fail" -ne 0 ]; then echo "soak: FAIL"; exit 1; fi
echo "soak: PASS"
