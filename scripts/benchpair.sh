#!/usr/bin/env bash
# benchpair: one benchmark of the working tree beside the same benchmark of
# an older revision, run alternately, for a machine whose speed drifts (a
# shared VM can run a third slower one hour than the next): each pair ran
# within seconds of each other, so their ratio holds when the raw figures
# do not. Prints every pair, then per side the least, median and most, and
# the ratio of each pair (now / then).
#
#   BASE      the older revision (default 65ffc40: before protocol version 4)
#   PKG       the package (default ./netcode/view)
#   BENCH     the benchmark's -bench pattern (default Tick2000Entities256Clients)
#   METRIC    the unit to compare (default ns/client)
#   ROUNDS    pairs to run (default 10)
#   BENCHTIME each run's -benchtime (default 1s)
set -euo pipefail
BASE=${BASE:-65ffc40}
PKG=${PKG:-./netcode/view}
BENCH=${BENCH:-Tick2000Entities256Clients}
METRIC=${METRIC:-ns/client}
ROUNDS=${ROUNDS:-10}
BENCHTIME=${BENCHTIME:-1s}
GO=${GO:-go}

tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/base" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git worktree add --detach -q "$tmp/base" "$BASE"
(cd "$tmp/base" && "$GO" test -c -o "$tmp/then.test" "$PKG")
"$GO" test -c -o "$tmp/now.test" "$PKG"

# value BINARY: the benchmark's METRIC in one run.
value() {
	"$1" -test.run '^$' -test.bench "$BENCH" -test.benchtime "$BENCHTIME" |
		awk -v m="$METRIC" '{for (i = 2; i <= NF; i++) if ($i == m) {print $(i-1); exit}}'
}

echo "pair  now  then  ($METRIC; $PKG -bench $BENCH; then = $BASE)"
for i in $(seq "$ROUNDS"); do
	now=$(value "$tmp/now.test")
	then=$(value "$tmp/then.test")
	if [ -z "$now" ] || [ -z "$then" ]; then
		echo "benchpair: no $METRIC from $BENCH in one of the two builds" >&2
		exit 1
	fi
	echo "$i $now $then"
done | tee "$tmp/pairs"
awk '{n++; now[n] = $2; then[n] = $3; ratio[n] = $2 / $3; s += ratio[n]}
function summary(name, v, k, i, j, t) {
	for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) {t = v[i]; v[i] = v[j]; v[j] = t}
	printf "%-5s least %.5g  median %.5g  most %.5g\n", name, v[1], (k % 2 ? v[(k+1)/2] : (v[k/2] + v[k/2+1]) / 2), v[k]
}
END {
	summary("now", now, n); summary("then", then, n)
	printf "now / then, per pair: mean %.3f\n", s / n
	summary("ratio", ratio, n)
}' "$tmp/pairs"
