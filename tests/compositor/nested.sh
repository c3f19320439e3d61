#!/bin/sh
# fairway nests in a window: an inner fairway on the wayland backend, then
# one on the x11 backend (through the outer fairway's XWayland), each
# showing a client whose colour must reach the outer fairway's screen.
. "$(dirname "$0")/lib.sh"
need_prog grim

fw_start
outer_display=$WAYLAND_DISPLAY

nest() {
	backend=$1 color=$2
	log "inner fairway on the $backend backend"
	# The inner one must not see the outer socket's name as its own.
	env -u WLR_BACKENDS WAYLAND_DISPLAY="$3" DISPLAY="$4" \
		"$FAIRWAY" --backend "$backend" --no-xwayland \
		--socket "inner-$backend-$$" --output-size 640x480 -- \
		"$FW_TEST_CLIENT" --color "$color" --size 300x200 --duration 60 \
		>"$FW_TMP/inner-$backend.out" 2>"$FW_TMP/inner-$backend.err" &
	inner=$!
	FW_HELPERS="$FW_HELPERS $inner"
	WAYLAND_DISPLAY=$outer_display wait_color_settled 30 "$color" 20000
	set -- $BBOX
	log "inner client's colour at $1,$2 size ${3}x$4 on the outer screen"
	[ "$3" -ge 250 ] && [ "$4" -ge 150 ] ||
		fail "the inner client shows ${3}x$4 on the outer screen, want about 300x200"
	kill -TERM "$inner"
	wait "$inner"
}

nest wayland 20c040 "$outer_display" ""
nest x11 c04020 "" "$DISPLAY"
pass
