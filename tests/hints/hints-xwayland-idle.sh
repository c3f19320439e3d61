#!/bin/sh
# Xwayland never gets SCHED_IDLE: wlroots' window manager blocks fairway's
# thread on Xwayland's replies, so a SCHED_IDLE Xwayland under CPU load
# would stall every client. With a map that asks SCHED_IDLE of interactive
# clients, an xterm that gets input is put in SCHED_IDLE, and Xwayland,
# which takes its X clients' class, gets SCHED_BATCH instead.
. "$(dirname "$0")/lib-hints.sh"
need_privilege
need_prog xterm
need_prog xdotool

fw_start -d --hint-map interactive:policy=idle
start_bg xterm -T fw-xterm -e sh -c 'read line' >"$FW_TMP/xterm.out" 2>&1
xterm=$BG_PID
wait_until 30 "the xterm mapped and focused" x_focused fw-xterm
xwayland=""
for p in $(pgrep -x -u root Xwayland); do
	tr '\0' '\n' <"/proc/$p/cmdline" | grep -qx "$DISPLAY" && xwayland=$p
done
[ -n "$xwayland" ] || fail "no Xwayland for $DISPLAY"
"$FW_TEST_POINTER" move 100 100 move 110 110 || fail "fw-test-pointer failed"
wait_until 20 "SCHED_IDLE on the xterm ($xterm)" \
	all_threads "$xterm" "^policy=5 "
wait_until 20 "Xwayland ($xwayland) hinted" all_threads "$xwayland" " reset=1"
all_threads "$xwayland" "^policy=3 " ||
	fail "Xwayland did not get SCHED_BATCH: $FW_SEEN"
log "xterm: SCHED_IDLE; Xwayland: $FW_SEEN"
pass
