#!/bin/sh
# fairway nests in a window: an inner fairway on the wayland backend, then
# one on the x11 backend (through the outer fairway's XWayland), each
# showing a client whose colour must reach the outer fairway's screen, in
# a window named after fairway and the WAYLAND_DISPLAY it serves. Without
# a GPU, neither start (nor a headless one) logs an error: no failed GPU
# probe, no X error.
. "$(dirname "$0")/lib.sh"
need_prog grim
: "${FW_TEST_TOPLEVEL:=fw-test-toplevel}"

# Errors a start without a GPU must not log, in FILE.
no_false_errors() {
	if grep -E 'drmGetDevices2|X11 error' "$1" >"$FW_TMP/false-errors.txt"; then
		fail "$2 logged: $(head -n 3 "$FW_TMP/false-errors.txt")"
	fi
}
# Without a render node, fairway picks its renderer itself.
gpu="" renderer="-u WLR_RENDERER"
ls /dev/dri/renderD* >/dev/null 2>&1 && gpu=1 renderer=WLR_RENDERER=pixman

fw_start
outer_display=$WAYLAND_DISPLAY

nest() {
	backend=$1 color=$2
	log "inner fairway on the $backend backend"
	# The inner one must not see the outer socket's name as its own.
	env -u WLR_BACKENDS $renderer \
		WAYLAND_DISPLAY="$3" DISPLAY="$4" \
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
	wait_until 30 "$backend window named after the inner fairway's socket" \
		"named_$backend"
	kill -TERM "$inner"
	wait "$inner"
	[ -n "$gpu" ] || no_false_errors "$FW_TMP/inner-$backend.err" \
		"the inner fairway on the $backend backend"
}

# The inner window's name, as the outer fairway's task bar sees it.
named_wayland() {
	WAYLAND_DISPLAY=$outer_display "$FW_TEST_TOPLEVEL" activate \
		"fairway: WAYLAND_DISPLAY=inner-wayland-$$ (WL-1)" \
		>/dev/null 2>"$FW_TMP/toplevel.err"
	FW_SEEN=$(cat "$FW_TMP/toplevel.err")
	[ ! -s "$FW_TMP/toplevel.err" ]
}
# And as the outer XWayland's X clients see it.
named_x11() {
	command -v xwininfo >/dev/null 2>&1 || return 0
	FW_SEEN=$(xwininfo -root -tree 2>&1 | grep -F '"fairway: ')
	case "$FW_SEEN" in
	*"\"fairway: WAYLAND_DISPLAY=inner-x11-$$ (X11-1)\""*) return 0 ;;
	esac
	return 1
}

nest wayland 20c040 "$outer_display" ""
nest x11 c04020 "" "$DISPLAY"

if [ -z "$gpu" ]; then
	env -u WLR_RENDERER "$FAIRWAY" --backend headless --no-xwayland \
		--socket "headless-$$" -- true >/dev/null 2>"$FW_TMP/headless.err" ||
		fail "a headless fairway failed: $(tail -n 5 "$FW_TMP/headless.err")"
	no_false_errors "$FW_TMP/headless.err" "a headless start"
fi
pass
