#!/bin/sh
# Bad requests to the scheduler protocol: a priority outside [-20, 20] is
# a protocol error to its sender only, while a fairway-top subscribed
# meanwhile goes on refreshing. Statistics periods are clamped to
# [100 ms, 1 h], and a subscription at 1 ms gets no more rounds than one
# every 100 ms.
. "$(dirname "$0")/lib.sh"
: "${FW_TEST_SCHEDULER:?}" "${FW_TEST_CLIENT:?}" "${FAIRWAY_TOP:?}"

allow_manager "$FAIRWAY_TOP" "$FW_TEST_SCHEDULER"
fw_start --no-xwayland
start_bg "$FW_TEST_CLIENT" >"$FW_TMP/client.out"
CLIENT_PID=$BG_PID
wait_until 20 "the test client's window" has_line "$FW_TMP/client.out" '^mapped'
start_bg sh -c 'exec "$0" --batch --json --interval 100 >"$1" 2>"$2"' \
	"$FAIRWAY_TOP" "$FW_TMP/top.json" "$FW_TMP/top.err"
TOP_PID=$BG_PID
lines() {
	FW_SEEN="$(wc -l <"$FW_TMP/top.json") lines"
	[ "$(wc -l <"$FW_TMP/top.json")" -ge "$1" ]
}
wait_until 20 "fairway-top's first refresh" lines 1

for bad in 21 -21 2147483647; do
	"$FW_TEST_SCHEDULER" set-priority "$CLIENT_PID" "$bad" >"$FW_TMP/bad.out"
	status=$?
	[ "$status" -eq 3 ] &&
		grep -q '^error fairway_scheduler_client_v1 0$' "$FW_TMP/bad.out" ||
		fail "priority $bad was not an invalid_priority error (exit $status): $(cat "$FW_TMP/bad.out")"
done
seen=$(wc -l <"$FW_TMP/top.json")
wait_until 20 "fairway-top refreshing after the errors" lines $((seen + 3))
alive "$TOP_PID" || fail "fairway-top was disconnected: $(cat "$FW_TMP/top.err")"
alive "$CLIENT_PID" || fail "the test client was disconnected"
# The bad values changed nothing; a good one still works.
tail -n 1 "$FW_TMP/top.json" | python3 -c '
import json, sys
rows = {r["pid"]: r for r in json.load(sys.stdin)}
assert rows[int(sys.argv[1])]["priority"] == 0, rows[int(sys.argv[1])]
' "$CLIENT_PID" || fail "a bad priority changed the client's"
"$FW_TEST_SCHEDULER" set-priority "$CLIENT_PID" 20 >"$FW_TMP/good.out" ||
	fail "priority 20 refused: $(cat "$FW_TMP/good.out")"

# A handle whose manager is gone still sets priorities, but its
# subscription stops and a new one is ignored.
"$FW_TEST_SCHEDULER" orphan "$CLIENT_PID" -7 >"$FW_TMP/orphan.out" ||
	fail "orphan failed: $(cat "$FW_TMP/orphan.out")"
grep -q '^stats_after 0$' "$FW_TMP/orphan.out" ||
	fail "statistics came after the manager went: $(cat "$FW_TMP/orphan.out")"
priority_is() {
	tail -n 1 "$FW_TMP/top.json" | python3 -c '
import json, sys
rows = {r["pid"]: r for r in json.load(sys.stdin)}
sys.exit(0 if rows[int(sys.argv[1])]["priority"] == int(sys.argv[2]) else 1)
' "$CLIENT_PID" "$1"
}
wait_until 20 "priority -7 from the orphaned handle" priority_is -7

# Periods: 1 ms is 100, 0 stops, above an hour is an hour.
"$FW_TEST_SCHEDULER" period 1 2 >"$FW_TMP/period.out" || fail "period failed"
grep -q '^period 100$' "$FW_TMP/period.out" ||
	fail "a 1 ms period was not clamped to 100: $(cat "$FW_TMP/period.out")"
set -- $(sed -n 's/^rounds \([0-9]*\) elapsed_ms \([0-9]*\)$/\1 \2/p' "$FW_TMP/period.out")
[ $# -eq 2 ] || fail "no rounds line: $(cat "$FW_TMP/period.out")"
log "$1 rounds in $2 ms at a 1 ms period"
[ "$1" -ge 1 ] || fail "no round at all"
[ "$1" -le $(($2 / 100 + 2)) ] || fail "$1 rounds in $2 ms: more than one per 100 ms"
"$FW_TEST_SCHEDULER" period 0 0 >"$FW_TMP/period0.out" || fail "period 0 failed"
grep -q '^period 0$' "$FW_TMP/period0.out" || fail "period 0: $(cat "$FW_TMP/period0.out")"
"$FW_TEST_SCHEDULER" period 4000000 0 >"$FW_TMP/periodmax.out" || fail "long period failed"
grep -q '^period 3600000$' "$FW_TMP/periodmax.out" ||
	fail "a period over an hour: $(cat "$FW_TMP/periodmax.out")"
alive "$TOP_PID" || fail "fairway-top was disconnected"
pass
