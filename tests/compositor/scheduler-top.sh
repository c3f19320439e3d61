#!/bin/sh
# fairway-top --batch --json over the scheduler protocol names a known
# client with its real pid, comm and app_id, and itself as "self"; the
# text table shows the same client. With --scheduler off there is nothing
# to show, and fairway-top says so. fairway-top takes the first refresh
# from the second round, so --count 1 waits two periods.
. "$(dirname "$0")/lib.sh"
: "${FAIRWAY_TOP:?}" "${FW_TEST_CLIENT:?}"

allow_manager "$FAIRWAY_TOP"
fw_start --no-xwayland
start_bg "$FW_TEST_CLIENT" --app-id fw-top-known >"$FW_TMP/client.out"
CLIENT_PID=$BG_PID
wait_until 20 "the test client's window" has_line "$FW_TMP/client.out" '^mapped'

# The app_id is looked at once a second: refresh until it shows.
names_client() {
	timeout 20 "$FAIRWAY_TOP" --batch --json --count 1 --interval 200 \
		>"$FW_TMP/top.json" 2>"$FW_TMP/top.err" || return 1
	FW_SEEN=$(cat "$FW_TMP/top.json")
	python3 - "$FW_TMP/top.json" "$CLIENT_PID" <<'PY'
import json, sys
rows = json.loads(open(sys.argv[1]).read())
pid = int(sys.argv[2])
mine = [r for r in rows if r["pid"] == pid]
assert len(mine) == 1, "client %d is not listed once" % pid
r = mine[0]
for key in ("pid", "priority", "class", "requests_per_s", "dispatch_ms"):
    assert key in r, key
assert r["comm"] == "fw-test-client", r["comm"]
assert r["app_ids"] == ["fw-top-known"], r["app_ids"]
assert r["priority"] == 0 and r["class"] in ("idle", "output", "interactive", "background")
assert r["requests"] > 0, "no requests counted"
selves = [r for r in rows if r["self"]]
assert len(selves) == 1 and selves[0]["comm"] == "fairway-top", selves
PY
}
wait_until 30 "fairway-top --json naming pid $CLIENT_PID" names_client

timeout 20 "$FAIRWAY_TOP" --batch --count 1 --interval 200 \
	>"$FW_TMP/top.txt" 2>"$FW_TMP/top.err" || fail "fairway-top --batch failed"
grep -E "^ +[0-9]+ +$CLIENT_PID +0 .* fw-test-client \(fw-top-known\)" \
	"$FW_TMP/top.txt" >/dev/null || fail "the table has no row for $CLIENT_PID: $(cat "$FW_TMP/top.txt")"

fw_stop
[ "$FW_STATUS" -eq 0 ] || fail "fairway exited $FW_STATUS on SIGTERM"
fw_start --no-xwayland --scheduler off
timeout 20 "$FAIRWAY_TOP" --batch --count 1 >"$FW_TMP/off.out" 2>"$FW_TMP/off.err"
status=$?
[ "$status" -eq 1 ] && grep -q 'offers no fairway_scheduler_manager_v1' "$FW_TMP/off.err" ||
	fail "with --scheduler off, fairway-top exited $status: $(cat "$FW_TMP/off.err")"
pass
