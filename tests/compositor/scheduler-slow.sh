#!/bin/sh
# A subscriber that stops reading is not waited for: its statistics pile
# up in fairway to the same event cap as any client that stops reading,
# and then it is dropped, while fairway goes on serving everyone else
# (a fairway-top keeps refreshing, new clients get answers).
. "$(dirname "$0")/lib.sh"
: "${FW_TEST_SCHEDULER:?}" "${FAIRWAY_TOP:?}"

allow_manager "$FAIRWAY_TOP" "$FW_TEST_SCHEDULER"
fw_start --no-xwayland
start_bg sh -c 'exec "$0" --batch --json --interval 500 >"$1" 2>"$2"' \
	"$FAIRWAY_TOP" "$FW_TMP/top.json" "$FW_TMP/top.err"
TOP_PID=$BG_PID
# 60 connections, each reported twice every 100 ms: some 270 KB/s.
start_bg "$FW_TEST_SCHEDULER" stall 60 >"$FW_TMP/stall.out"
STALL_PID=$BG_PID
wait_until 30 "the stalled subscriber's subscriptions" \
	has_line "$FW_TMP/stall.out" '^stalled'
lines() {
	[ "$(wc -l <"$FW_TMP/top.json")" -ge "$1" ]
}
# Meanwhile fairway answers: each pass is a new client's roundtrips.
answers() {
	"$FW_TEST_SCHEDULER" globals >/dev/null || return 1
	has_line "$FW_TMP/fairway-1.err" "client $STALL_PID does not read its events"
}
wait_until 90 "the stalled subscriber dropped at the event cap" answers
seen=$(wc -l <"$FW_TMP/top.json")
wait_until 20 "fairway-top refreshing after the drop" lines $((seen + 2))
alive "$TOP_PID" || fail "fairway-top was dropped too: $(cat "$FW_TMP/top.err")"
pass
