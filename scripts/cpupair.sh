#!/usr/bin/env bash
# cpupair: the match server's CPU per client and tick, this working tree's
# server beside an older revision's, measured alternately as a host would
# (each run its own cmd/server -bots 4 and the same revision's cmd/loadtest with
# CLIENTS WebRTC clients over loopback for RUN_SECONDS; the figure is the load
# tester's server_cpu_us_per_client_tick, read from the server's
# /metrics with its idle cost subtracted). The VM's speed drifts, so only
# the ratio of a pair, run within a minute, is compared. Prints every pair,
# then the median of the ratios (now / then).
#
#   BASE     the older revision (default: the code before the per-player cost work)
#   PAIRS    pairs to run (default 5)
#   CLIENTS  load-test clients (default 32)
#   RUN_SECONDS  how long each client plays (default 20)
#   NOW_ARGS, THEN_ARGS  extra server flags for each side (default none)
#   LOADTEST_ARGS  extra cmd/loadtest flags (default none; -matches spreads the
#            clients over the server's matches)
#   CPU_FROM  loadtest (default) or proc: the script reads each server's CPU
#            from /proc/PID/stat itself, for 2 s before the load tester starts
#            (idle) and from the moment the server's log has every client
#            joined until the first leaves (or the load tester ends), the
#            ticks counted at 30 a second, as the load tester does. proc is
#            chosen for both sides when BASE's load tester does not report
#            the server's CPU (a revision before 72da74e, whose server has no
#            /metrics).
set -euo pipefail
BASE=${BASE:-72da74e}
PAIRS=${PAIRS:-5}
CLIENTS=${CLIENTS:-32}
SECONDS_=${RUN_SECONDS:-20}
GO=${GO:-go}

tmp=$(mktemp -d)
trap 'pkill -P $$ 2>/dev/null || true; git worktree remove --force "$tmp/base" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git worktree add --detach -q "$tmp/base" "$BASE"
# Each side's own load tester, which speaks its server's protocol version.
(cd "$tmp/base" && "$GO" build -o "$tmp/then-server" ./cmd/server && "$GO" build -o "$tmp/then-loadtest" ./cmd/loadtest)
"$GO" build -o "$tmp/now-server" ./cmd/server
"$GO" build -o "$tmp/now-loadtest" ./cmd/loadtest
CPU_FROM=${CPU_FROM:-}
if [ -z "$CPU_FROM" ]; then
	CPU_FROM=loadtest
	git -C "$tmp/base" grep -q server_cpu_us_per_client_tick -- cmd/loadtest || CPU_FROM=proc
fi

# proc_cpu PID: the process's user and system CPU in clock ticks so far.
proc_cpu() {
	awk '{print $14 + $15}' "/proc/$1/stat"
}

# free_port NET: a port of NET (tcp or udp) free a moment ago.
free_port() {
	python3 -c "import socket,sys; s=socket.socket(socket.AF_INET, socket.SOCK_STREAM if sys.argv[1]=='tcp' else socket.SOCK_DGRAM); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])" "$1"
}

# measure SIDE ARGS...: one run of SIDE's (now or then) server and load
# tester, printing its figure.
measure() {
	local exe=$tmp/$1-server loadtest=$tmp/$1-loadtest
	shift
	local port udp
	port=$(free_port tcp)
	udp=$(free_port udp)
	"$exe" -addr "127.0.0.1:$port" -udp-port "$udp" -bots 4 -announce=false "$@" >"$tmp/server.log" 2>&1 &
	local pid=$!
	for _ in $(seq 100); do
		curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
		sleep 0.1
	done
	local cpu=""
	if [ "$CPU_FROM" = proc ]; then
		local i0 i1 p0 p1
		i0=$(proc_cpu "$pid")
		sleep 2
		i1=$(proc_cpu "$pid")
		# shellcheck disable=SC2086
		"$loadtest" -url "http://127.0.0.1:$port" -clients "$CLIENTS" -seconds "$SECONDS_" -json ${LOADTEST_ARGS:-} >"$tmp/out.json" &
		local lt=$! t0 t1
		# Every client joined (the bots' 4 joins are logged too) ...
		while kill -0 "$lt" 2>/dev/null && [ "$(grep -c 'msg="player joined"' "$tmp/server.log")" -lt $((CLIENTS + 4)) ]; do
			sleep 0.05
		done
		p0=$(proc_cpu "$pid") t0=$(date +%s.%N)
		# ... until the first leaves.
		while kill -0 "$lt" 2>/dev/null && ! grep -q 'msg="player left"' "$tmp/server.log"; do
			sleep 0.05
		done
		p1=$(proc_cpu "$pid") t1=$(date +%s.%N)
		wait "$lt" || true
		cpu=$(python3 -c "
import sys
i0, i1, p0, p1, t0, t1, hz, clients = map(float, sys.argv[1:])
play = t1 - t0
print((p1 - p0 - (i1 - i0) / 2 * play) / hz / (play * 30 * clients) * 1e6)
" "$i0" "$i1" "$p0" "$p1" "$t0" "$t1" "$(getconf CLK_TCK)" "$CLIENTS")
	else
		# shellcheck disable=SC2086
		"$loadtest" -url "http://127.0.0.1:$port" -clients "$CLIENTS" -seconds "$SECONDS_" -json ${LOADTEST_ARGS:-} >"$tmp/out.json" || true
	fi
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
if sys.argv[2]:
    r['server_cpu_us_per_client_tick'] = float(sys.argv[2])
if r.get('mismatched_ticks', 0) or r.get('connected') != r.get('clients') or 'server_cpu_us_per_client_tick' not in r:
    sys.exit('bad run: ' + json.dumps({k: r.get(k) for k in ('clients', 'connected', 'mismatched_ticks', 'server_cpu_error')} | {'errors': (r.get('errors') or [])[:2]}))
print('%.1f %.3f' % (r['server_cpu_us_per_client_tick'], r.get('input_lag_inputs', float('nan'))))
" "$tmp/out.json" "$cpu"
}

echo "pair  now  then  ratio  lag-now  lag-then  (server CPU µs per client per tick, from $CPU_FROM; $CLIENTS clients, ${SECONDS_} s; then = $BASE;"
echo "      lag: the load tester's input_lag_inputs, the inputs a client had sent that its newest snapshot did not show applied)"
ratios=()
for i in $(seq "$PAIRS"); do
	# shellcheck disable=SC2086
	out=$(measure now ${NOW_ARGS:-})
	read -r now lnow <<<"$out"
	# shellcheck disable=SC2086
	out=$(measure then ${THEN_ARGS:-})
	read -r then lthen <<<"$out"
	ratio=$(python3 -c "print('%.3f' % ($now / $then))")
	ratios+=("$ratio")
	echo "$i  $now  $then  $ratio  $lnow  $lthen"
done
python3 -c "
import statistics, sys
r = sorted(float(x) for x in sys.argv[1:])
print('ratio least %.3f  median %.3f  most %.3f' % (r[0], statistics.median(r), r[-1]))
" "${ratios[@]}"
