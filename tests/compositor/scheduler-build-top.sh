#!/bin/sh
# The fairway-top built beside fairway works with no configuration: a
# fairway run from its build tree shows the manager to that tree's
# clients/fairway-top, as `make run` and the README need. A copy of it
# elsewhere is refused, and says why: who fairway trusts, not that the
# compositor is not fairway.
. "$(dirname "$0")/lib.sh"
: "${FAIRWAY_TOP:?}" "${FW_TEST_CLIENT:?}"

fw_start --no-xwayland
start_bg "$FW_TEST_CLIENT" >"$FW_TMP/client.out"
CLIENT_PID=$BG_PID
wait_until 20 "the test client's window" has_line "$FW_TMP/client.out" '^mapped'

timeout 20 "$FAIRWAY_TOP" --batch --count 1 --interval 200 \
	>"$FW_TMP/top.txt" 2>"$FW_TMP/top.err" ||
	fail "the build's fairway-top was refused: $(cat "$FW_TMP/top.err")"
grep -Eq "^ +[0-9]+ +$CLIENT_PID " "$FW_TMP/top.txt" ||
	fail "the build's fairway-top shows no row for $CLIENT_PID: $(cat "$FW_TMP/top.txt")"
log "the build's fairway-top shows the test client"

cp "$FAIRWAY_TOP" "$FW_TMP/fairway-top"
timeout 20 "$FW_TMP/fairway-top" --batch --count 1 >"$FW_TMP/copy.out" 2>"$FW_TMP/copy.err"
status=$?
[ "$status" -eq 1 ] || fail "a copy of fairway-top exited $status, want 1: $(cat "$FW_TMP/copy.err")"
grep -qF "offers no fairway_scheduler_manager_v1 to $FW_TMP/fairway-top." "$FW_TMP/copy.err" &&
	grep -q "installed fairway-top" "$FW_TMP/copy.err" &&
	grep -q "scheduler manager" "$FW_TMP/copy.err" ||
	fail "a refused fairway-top does not say why: $(cat "$FW_TMP/copy.err")"
pass
