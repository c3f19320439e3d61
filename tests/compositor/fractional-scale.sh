#!/bin/sh
# An output at scale 1.5 (from the configuration file), through the gate
# and with --scheduler off:
# - fw-test-fractional, foot and gtk4-demo are each told a preferred scale
#   of 180/120 by wp_fractional_scale_v1;
# - a fullscreen one-pixel checkerboard that fw-test-fractional draws at
#   that scale (a 1280x720 buffer shown through wp_viewporter at 853x480)
#   reaches the output pixel for pixel. The screencopy frame is the output
#   buffer itself, not resampled, and every one of its pixels must be pure
#   black or pure white and differ from its right and lower neighbours: any
#   resampling of the buffer (a 1.5 stretch of a scale 1 buffer, or a box
#   one pixel off its buffer's size) blends neighbours into grey, and a
#   pixel drawn twice or dropped repeats a colour.
# - the same checkerboard drawn at scale 1 and stretched by the compositor
#   does show grey: the check above can see blur.
. "$(dirname "$0")/lib.sh"
: "${FW_TEST_FRACTIONAL:?}" "${FW_TEST_CAPTURE:?}"

echo "output HEADLESS-1 scale 1.5" >"$XDG_CONFIG_HOME/fairway/config"

# Whether a fresh capture is the checkerboard; FW_SEEN says what
# ppm-probe found.
shows_checker() {
	capture "$FW_TMP/shot-$((FW_CAPTURES + 1)).ppm"
	FW_SEEN="$FW_SHOT: $("$PPM_PROBE" "$FW_SHOT" size) $("$PPM_PROBE" "$FW_SHOT" checker 0 0 1280 720)"
	"$PPM_PROBE" "$FW_SHOT" checker 0 0 1280 720 >/dev/null
}

# The control: grey, so not a checkerboard for the reason that matters.
shows_grey() {
	shows_checker && return 1
	case "$FW_SEEN" in
	*"neither black nor white") return 0 ;;
	esac
	return 1
}

for mode in on off; do
	fw_start --no-xwayland --scheduler $mode
	capture_start

	out="$FW_TMP/fractional-$mode.out"
	start_bg "$FW_TEST_FRACTIONAL" --fullscreen >"$out" 2>"$FW_TMP/fractional-$mode.err"
	client=$BG_PID
	wait_until 30 "preferred scale 180 ($mode)" has_line "$out" '^preferred-scale 180$'
	wait_until 30 "a 1280x720 buffer for 853x480 ($mode)" \
		has_line "$out" '^drawn 853 480 1280 720$'
	wait_until 30 "the checkerboard unblurred on the output ($mode)" shows_checker
	log "$mode: preferred scale 180, the 1280x720 checkerboard shows pixel for pixel"
	stop_pid "$client"

	if [ $mode = on ]; then
		start_bg "$FW_TEST_FRACTIONAL" --fullscreen --ignore-scale \
			>"$FW_TMP/stretched.out" 2>"$FW_TMP/stretched.err"
		client=$BG_PID
		wait_until 30 "the scale 1 checkerboard" \
			has_line "$FW_TMP/stretched.out" '^drawn 853 480 853 480$'
		wait_until 30 "the stretched checkerboard to show grey" shows_grey
		log "control: a scale 1 buffer stretched to 1.5 shows grey ($FW_SEEN)"
		stop_pid "$client"
	fi
	capture_stop

	# Real clients, each as the user it would run as: the event on the
	# wire, from their own WAYLAND_DEBUG log.
	event='wp_fractional_scale_v1#[0-9]*\.preferred_scale(180)'
	if command -v foot >/dev/null 2>&1; then
		start_bg env WAYLAND_DEBUG=1 foot -c /dev/null sleep 1000 \
			>"$FW_TMP/foot-$mode.out" 2>"$FW_TMP/foot-$mode.log"
		foot=$BG_PID
		wait_until 30 "foot to be told scale 180 ($mode)" \
			has_line "$FW_TMP/foot-$mode.log" "$event"
		log "$mode: foot told preferred scale 180"
		stop_pid "$foot"
	fi
	if command -v gtk4-demo >/dev/null 2>&1; then
		start_bg env WAYLAND_DEBUG=1 GDK_BACKEND=wayland GSK_RENDERER=cairo \
			gtk4-demo >"$FW_TMP/gtk4-$mode.out" 2>"$FW_TMP/gtk4-$mode.log"
		gtk=$BG_PID
		wait_until 60 "gtk4-demo to be told scale 180 ($mode)" \
			has_line "$FW_TMP/gtk4-$mode.log" "$event"
		log "$mode: gtk4-demo told preferred scale 180"
		stop_pid "$gtk"
	fi
	fw_stop
	[ "$FW_STATUS" -eq 0 ] || fail "fairway exited $FW_STATUS ($mode)"
done
pass
