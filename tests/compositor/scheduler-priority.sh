#!/bin/sh
# Three plaid flooders share fairway's dispatch time. Setting one's base
# priority to -10 through the scheduler protocol, as XSync SetPriority
# would, reaches the gate: fairway-top reports it for that client and no
# other, and the flooders are still served. Its share of the dispatch
# time is logged, before and after; that it falls is bench/priority-ab's
# to measure.
. "$(dirname "$0")/lib.sh"
: "${FAIRWAY_TOP:?}" "${FW_PLAID:?}" "${FW_TEST_SCHEDULER:?}"

allow_manager "$FAIRWAY_TOP" "$FW_TEST_SCHEDULER"
fw_start --no-xwayland --hints off
start_bg "$FW_PLAID" --mode requests --duration 120 >"$FW_TMP/plaid-a.out"
A=$BG_PID
start_bg "$FW_PLAID" --mode requests --duration 120 >"$FW_TMP/plaid-b.out"
B=$BG_PID
start_bg "$FW_PLAID" --mode requests --duration 120 >"$FW_TMP/plaid-c.out"
C=$BG_PID

# share FILE PRIORITY: A's share of the dispatch time the flooders got
# over the refreshes in FILE; checks A's base priority.
share() {
	python3 - "$1" "$2" "$A" "$B" "$C" <<'PY'
import json, sys
path, priority = sys.argv[1], int(sys.argv[2])
a, *others = map(int, sys.argv[3:])
mine = total = 0
for line in open(path):
    rows = {r["pid"]: r for r in json.loads(line)}
    assert all(p in rows for p in [a] + others), "a flooder is missing: %s" % sorted(rows)
    assert rows[a]["priority"] == priority, rows[a]
    mine += rows[a]["dispatch_ms_per_s"]
    total += sum(rows[p]["dispatch_ms_per_s"] for p in [a] + others)
assert total > 0, "no flooder was served"
print("%.4f" % (mine / total))
PY
}

both_served() {
	timeout 20 "$FAIRWAY_TOP" --batch --json --count 1 --interval 250 \
		>"$FW_TMP/warm.json" 2>>"$FW_TMP/top.err" || return 1
	FW_SEEN=$(cat "$FW_TMP/warm.json")
	python3 -c '
import json, sys
rows = {r["pid"]: r for r in json.load(open(sys.argv[1]))}
sys.exit(0 if all(rows.get(p, {}).get("requests_per_s", 0) > 0 for p in map(int, sys.argv[2:])) else 1)
' "$FW_TMP/warm.json" "$A" "$B" "$C"
}
wait_until 30 "every flooder served" both_served

timeout 30 "$FAIRWAY_TOP" --batch --json --count 12 --interval 250 \
	>"$FW_TMP/before.json" 2>>"$FW_TMP/top.err" || fail "fairway-top failed"
before=$(share "$FW_TMP/before.json" 0) || fail "cannot read the shares before"
log "A's share before: $before"

"$FW_TEST_SCHEDULER" set-priority "$A" -10 >"$FW_TMP/set.out" ||
	fail "set-priority failed: $(cat "$FW_TMP/set.out")"

timeout 30 "$FAIRWAY_TOP" --batch --json --count 12 --interval 250 \
	>"$FW_TMP/after.json" 2>>"$FW_TMP/top.err" || fail "fairway-top failed"
after=$(share "$FW_TMP/after.json" -10) || fail "cannot read the shares after"
log "A's share after priority -10: $after"

# How much A's share falls is no assertion: on a loaded machine the
# flooders are not always all ready, and then no priority decides anything.
# bench/priority-ab measures it; the policy's unit tests
# (tests/unit/test_policy.c) check what a priority does with a fake clock.
alive "$A" && alive "$B" && alive "$C" || fail "a flooder died"
pass
