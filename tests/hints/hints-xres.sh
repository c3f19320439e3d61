#!/bin/sh
# An X client that sets no _NET_WM_PID (xeyes) is still hinted on its own
# pid: wlroots' window manager asks Xwayland for it through the X-Resource
# extension (xwm.c), and the ratings take it from there.
. "$(dirname "$0")/lib-hints.sh"
need_privilege
need_prog xeyes
need_prog xdotool
need_prog xprop

need_prog grim

fw_start -d
# The eyes' whites in a colour of their own, to see where fairway shows it.
start_bg xeyes -geometry 300x300+0+0 -center '#33cc99' \
	>"$FW_TMP/xeyes.out" 2>&1
xeyes=$BG_PID
mapped() {
	FW_SEEN=$(timeout 10 xdotool search --onlyvisible --class xeyes 2>&1)
	[ -n "$FW_SEEN" ]
}
wait_until 30 "xeyes mapped" mapped
window=$(echo "$FW_SEEN" | head -n 1)
# The premise: xeyes does not say who it is.
timeout 10 xprop -id "$window" _NET_WM_PID | grep -q 'not found' ||
	skip "this xeyes sets _NET_WM_PID"
# X maps the window before fairway does (wlroots' window manager maps it
# at once; fairway maps the view once its surface commits): a pointer
# moved before then lands on nothing. Wait until it is on screen, and
# point into it.
wait_color 30 33cc99 1000
set -- $BBOX
x=$(($1 + $3 / 2))
y=$(($2 + $4 / 2))
"$FW_TEST_POINTER" move "$x" "$y" move $((x + 5)) $((y + 5)) ||
	fail "fw-test-pointer failed"
wait_until 20 "interactive attributes on xeyes ($xeyes)" \
	all_threads "$xeyes" "^$INTERACTIVE"
pass
