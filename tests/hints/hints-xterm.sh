#!/bin/sh
# An xterm under XWayland that gets pointer input is hinted on its own pid
# (which wlroots asks Xwayland for with XResQueryClientIds), and Xwayland
# takes its strongest X client's class.
. "$(dirname "$0")/lib-hints.sh"
need_privilege
need_prog xterm
need_prog xdotool

fw_start -d
start_bg xterm -T fw-xterm -e sh -c 'read line' >"$FW_TMP/xterm.out" 2>&1
xterm=$BG_PID
wait_until 30 "the xterm mapped and focused" x_focused fw-xterm
"$FW_TEST_POINTER" move 100 100 move 110 110 || fail "fw-test-pointer failed"
wait_until 20 "interactive attributes on the xterm ($xterm)" \
	all_threads "$xterm" "^$INTERACTIVE"
# wlroots starts Xwayland through an intermediate fork: find it by display.
xwayland=$(for p in $(pgrep -x Xwayland); do
	tr '\0' '\n' <"/proc/$p/cmdline" | grep -qx "$DISPLAY" && echo "$p"
done | head -n 1)
[ -n "$xwayland" ] || fail "no Xwayland for $DISPLAY"
wait_until 20 "interactive attributes on Xwayland ($xwayland)" \
	all_threads "$xwayland" "^$INTERACTIVE"
pass
