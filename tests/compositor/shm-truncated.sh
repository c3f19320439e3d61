#!/bin/sh
# A client that shrinks its pool under a buffer on screen is disconnected
# with a protocol error when fairway next paints it; fairway and the other
# windows carry on, whether it commits after (fairway refuses the commit)
# or not (the next read of the pool faults). Both render passes guard the
# read: fairway's pass on its own, wlroots' pass through fairway's wl_shm.
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

	# Truncated with no commit after: a window opened over it and closed
	# makes fairway read the pool again, and that read faults.
	mkfifo "$FW_TMP/$mode.cmd"
	"$FW_TEST_CLIENT" --size 400x300 --color ff8800 --commands \
		<"$FW_TMP/$mode.cmd" >"$FW_TMP/$mode-quiet.out" \
		2>"$FW_TMP/$mode-quiet.err" &
	FW_HELPERS="$FW_HELPERS $!"
	exec 3>"$FW_TMP/$mode.cmd"
	wait_color 30 ff8800 50000
	set -- $BBOX
	echo truncate >&3
	wait_until 30 "the $mode quiet client to truncate" \
		has_line "$FW_TMP/$mode-quiet.out" '^truncated'
	start_bg "$FW_TEST_CLIENT" --size 1280x720 --color 0000ff \
		>"$FW_TMP/$mode-cover.out" 2>"$FW_TMP/$mode-cover.err"
	wait_until 30 "the $mode covering window" \
		has_line "$FW_TMP/$mode-cover.out" '^mapped'
	stop_pid "$BG_PID"
	wait_until 30 "the $mode quiet client to be disconnected" \
		has_line "$FW_TMP/$mode-quiet.out" '^disconnected'
	exec 3>&-
	grep -q 'error 71' "$FW_TMP/$mode-quiet.err" ||
		fail "the quiet client got no protocol error ($(cat "$FW_TMP/$mode-quiet.err"))"
	log "$mode quiet: $(cat "$FW_TMP/$mode-quiet.err")"

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
