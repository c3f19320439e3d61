#!/bin/sh
# A client that shrinks its pool under a buffer on screen is disconnected
# with a protocol error when fairway next paints it; fairway and the other
# windows carry on. Both render passes guard the read the same way.
. "$(dirname "$0")/lib.sh"
need_prog grim

for mode in direct scene; do
	fw_start --no-xwayland --render $mode
	start_bg "$FW_TEST_CLIENT" --size 300x200 --color 00ff00 \
		>"$FW_TMP/$mode-good.out" 2>"$FW_TMP/$mode-good.err"
	good=$BG_PID
	wait_color 30 00ff00 50000

	start_bg "$FW_TEST_CLIENT" --size 400x300 --color ff00ff \
		--truncate-after-map \
		>"$FW_TMP/$mode-bad.out" 2>"$FW_TMP/$mode-bad.err"
	wait_until 30 "the $mode truncating client to be disconnected" \
		has_line "$FW_TMP/$mode-bad.out" '^disconnected'
	grep -q 'truncated' "$FW_TMP/$mode-bad.out" ||
		fail "the client was disconnected before it truncated its pool"
	grep -q 'error 71' "$FW_TMP/$mode-bad.err" ||
		fail "the truncating client got no protocol error ($(cat "$FW_TMP/$mode-bad.err"))"
	log "$mode: $(cat "$FW_TMP/$mode-bad.err")"

	# fairway still paints: a new window shows, the first one's is back.
	start_bg "$FW_TEST_CLIENT" --size 300x200 --color 0000ff \
		>"$FW_TMP/$mode-after.out" 2>"$FW_TMP/$mode-after.err"
	wait_color 30 0000ff 50000
	alive "$good" || fail "the well-behaved client died"
	fw_stop
	[ "$FW_STATUS" -eq 0 ] || fail "fairway --render $mode exited $FW_STATUS"
	stop_pid "$good"
done
pass
