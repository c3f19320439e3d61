#!/bin/sh
# A toplevel's xdg_toplevel.move and .resize requests start interactive moves
# and resizes that follow the pointer (driven by a virtual pointer).
. "$(dirname "$0")/lib.sh"
need_prog grim

fw_start --no-xwayland

# drag_delta X W LIMIT: +D if the window still fits after moving by D, else -D.
drag_delta() {
	if [ $(($1 + $2 + $4)) -le "$3" ]; then
		echo "$4"
	else
		echo "-$4"
	fi
}

# --- move ---
color=3366cc
out="$FW_TMP/move-client.out"
start_bg "$FW_TEST_CLIENT" --size 400x300 --color $color --move-on-click \
	>"$out" 2>"$FW_TMP/move-client.err"
move_client=$BG_PID
wait_until 30 "the move client to map" has_line "$out" '^mapped'
wait_color_settled 30 $color 100000
set -- $BBOX
x0=$1 y0=$2 w0=$3 h0=$4
log "window at ${x0},${y0} ${w0}x${h0} before the move"
[ "$w0" -eq 400 ] && [ "$h0" -eq 300 ] ||
	fail "window shows ${w0}x${h0}, want 400x300 (see $FW_SHOT)"
dx=$(drag_delta "$x0" 400 1280 150)
dy=$(drag_delta "$y0" 300 720 100)
sx=$((x0 + 200)) sy=$((y0 + 150))
# Wait for the pointer to enter before pressing: the client only gets a
# wl_pointer once the seat has a pointer, and that is ours.
"$FW_TEST_POINTER" move $sx $sy await "$out" pointer-enter press \
	await "$out" move-requested \
	move $((sx + dx / 2)) $((sy + dy / 2)) move $((sx + dx)) $((sy + dy)) \
	release 2>"$FW_TMP/pointer.err" || fail "fw-test-pointer failed: $(cat "$FW_TMP/pointer.err")"
moved_to() {
	shows_color $color 100000 || return 1
	set -- $BBOX
	near "$1" $((x0 + dx)) 2 && near "$2" $((y0 + dy)) 2
}
wait_until 20 "window at $((x0 + dx)),$((y0 + dy)) after a drag by ${dx},${dy}" moved_to
log "window moved by ${dx},${dy}: now $BBOX"
stop_pid "$move_client"

# --- resize ---
color=cc6633
out="$FW_TMP/resize-client.out"
start_bg "$FW_TEST_CLIENT" --size 400x300 --color $color --resize-on-click \
	>"$out" 2>"$FW_TMP/resize-client.err"
wait_until 30 "the resize client to map" has_line "$out" '^mapped'
wait_color_settled 30 $color 100000
set -- $BBOX
x0=$1 y0=$2
log "window at ${x0},${y0} $3x$4 before the resize"
dx=150 dy=100
[ $((x0 + 400 + dx)) -le 1280 ] || dx=$((1280 - x0 - 400 - 5))
[ $((y0 + 300 + dy)) -le 720 ] || dy=$((720 - y0 - 300 - 5))
[ "$dx" -ge 40 ] && [ "$dy" -ge 40 ] ||
	fail "window at ${x0},${y0} leaves no room to grow it (see $FW_SHOT)"
sx=$((x0 + 200)) sy=$((y0 + 150))
"$FW_TEST_POINTER" move $sx $sy await "$out" pointer-enter press \
	await "$out" resize-requested \
	move $((sx + dx / 2)) $((sy + dy / 2)) move $((sx + dx)) $((sy + dy)) \
	release 2>"$FW_TMP/pointer.err" || fail "fw-test-pointer failed: $(cat "$FW_TMP/pointer.err")"
want_w=$((400 + dx)) want_h=$((300 + dy))
resized() {
	FW_SEEN=$(grep '^configured' "$out" | tail -n 1)
	set -- $FW_SEEN
	[ $# -eq 3 ] || return 1
	near "$2" $want_w 2 && near "$3" $want_h 2
}
wait_until 20 "configure to ${want_w}x${want_h}" resized
log "client configured to $(grep '^configured' "$out" | tail -n 1)"
sized() {
	shows_color $color 100000 || return 1
	set -- $BBOX
	# A bottom-right resize keeps the top-left corner where it was.
	near "$1" "$x0" 2 && near "$2" "$y0" 2 &&
		near "$3" $want_w 2 && near "$4" $want_h 2
}
wait_until 20 "a ${want_w}x${want_h} window at ${x0},${y0} on screen" sized
log "window resized on screen: $BBOX"
pass
