#!/usr/bin/env bash
# testloaded: `make test` with every core kept busy by another process, RUNS
# times in a row, to show that the suite's verdict does not depend on the
# machine's load. Prints each run's verdict, wall time and load average, and
# fails on the first red run.
#
#   RUNS   runs in a row (default 5)
#   BUSY   busy loops beside the suite (default: one per core, `nproc`)
#   MAKE   the make to call (default make)
set -uo pipefail
RUNS=${RUNS:-5}
BUSY=${BUSY:-$(nproc)}
MAKE=${MAKE:-make}

pids=()
stop() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; }
trap stop EXIT
for _ in $(seq "$BUSY"); do
	sh -c 'while :; do :; done' &
	pids+=($!)
done
echo "testloaded: $BUSY busy loops beside make test, $RUNS runs"
for i in $(seq "$RUNS"); do
	start=$(date +%s)
	log=$(mktemp -t testloaded.XXXXXX)
	"$MAKE" test >"$log" 2>&1
	rc=$?
	took=$(($(date +%s) - start))
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	if [ "$rc" -ne 0 ]; then
		grep -E '^(--- FAIL|FAIL|panic)' "$log" | head -20
		echo "run $i: FAIL after ${took} s (load average $load); log: $log"
		exit 1
	fi
	echo "run $i: ok after ${took} s (load average $load)"
	rm -f "$log"
done
