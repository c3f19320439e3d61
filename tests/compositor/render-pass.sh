#!/bin/sh
# fairway's direct render pass paints what wlr_scene's own pass paints, pixel
# for pixel: overlapping windows (each hides part of the one below), their
# titlebars, a popup, a translucent window blended over the others and a
# window drawn at twice its size, which the direct pass leaves to the
# renderer, and a window drawn at the output's scale through
# wp_fractional_scale_v1 and wp_viewporter.
#
# With --scale S the output has scale S, and the screens are compared as
# the output buffer holds them (screencopy, not resampled by grim): each
# node is drawn in the box wlr_scene draws it in (fairway's own title bars
# included, whose buffers are a pixel off their box at such a scale), and
# the damage is in buffer pixels. Either way, fairway's pass must paint
# every frame of the direct run itself.
. "$(dirname "$0")/lib.sh"
need_prog cmp
: "${FW_TEST_FRACTIONAL:?}"
SCALE=1
if [ "${1:-}" = --scale ]; then
	SCALE=$2
	FW_NAME="$FW_NAME-scale-$SCALE"
	echo "output HEADLESS-1 scale $SCALE" >"$XDG_CONFIG_HOME/fairway/config"
else
	need_prog grim
fi

shoot() {
	if [ "$SCALE" = 1 ]; then
		screenshot
	else
		capture "$FW_TMP/shot-$((FW_CAPTURES + 1)).ppm"
	fi
}

# A screenshot that a second one, taken a little later, repeats: a
# compositor may still be placing or focusing a window when it first shows.
settled_shot() {
	shoot || return 1
	prev=$FW_SHOT
	sleep 0.3
	shoot || return 1
	cmp -s "$prev" "$FW_SHOT"
}

# fractional_size LENGTH: LENGTH at the output's scale, rounded as
# wp_fractional_scale_v1 says.
fractional_size() {
	awk -v l="$1" -v s="$SCALE" \
		'BEGIN { s120 = int(s * 120 + 0.5); printf "%d", int((l * s120 + 60) / 120) }'
}

# paint MODE: starts fairway with --render MODE, opens the same windows in
# the same order, and leaves the settled screenshot in $FW_TMP/MODE.ppm.
paint() {
	mode=$1
	fw_start --no-xwayland --render "$mode" -V
	FW_ERR="$FW_TMP/fairway-$FW_STARTS.err"
	[ "$SCALE" = 1 ] || capture_start
	helpers_before=$FW_HELPERS
	n=0
	while read -r args; do
		n=$((n + 1))
		out="$FW_TMP/$mode-client-$n.out"
		case "$args" in
		--fractional*)
			start_bg "$FW_TEST_FRACTIONAL" --size 240x160 >"$out" \
				2>"$FW_TMP/$mode-client-$n.err"
			wait_until 30 "$mode fractional window to draw at its scale" \
				has_line "$out" "^drawn 240 160 $(fractional_size 240) $(fractional_size 160)\$"
			continue
			;;
		esac
		# shellcheck disable=SC2086 # args are word lists
		start_bg "$FW_TEST_CLIENT" $args >"$out" 2>"$FW_TMP/$mode-client-$n.err"
		wait_until 30 "$mode window $n to map" has_line "$out" '^mapped'
		case "$args" in
		*--popup*)
			wait_until 30 "$mode popup to map" has_line "$out" '^popup-mapped' ;;
		esac
	done <<WINDOWS
--size 500x300 --color 3366cc
--size 420x380 --color cc6633 --popup 160x90 --popup-color 22aa44
--size 300x200 --color 33cc66 --buffer-scale 2
--size 300x100 --color ee2288 --alpha 128
--fractional
WINDOWS
	wait_until 30 "$mode screen to settle" settled_shot
	cp "$FW_SHOT" "$FW_TMP/$mode.ppm"
	[ "$SCALE" = 1 ] || capture_stop
	for pid in $FW_HELPERS; do
		case " $helpers_before " in
		*" $pid "*) ;;
		*) stop_pid "$pid" ;;
		esac
	done
	fw_stop
	[ "$FW_STATUS" -eq 0 ] || fail "fairway --render $mode exited $FW_STATUS"
}

paint scene
paint direct

# fairway's pass painted every frame of the direct run itself.
has_line "$FW_ERR" "Output HEADLESS-1: fairway's pass paints it (scale $SCALE" ||
	fail "fairway's pass never painted the output at scale $SCALE ($FW_ERR)"
! has_line "$FW_ERR" "Output HEADLESS-1: wlr_scene" ||
	fail "$(grep "Output HEADLESS-1: wlr_scene" "$FW_ERR" | head -n 1)"

# The windows must really be on screen, or two black screens would agree.
FW_SHOT="$FW_TMP/direct.ppm"
for color in 3366cc cc6633 22aa44 33cc66; do
	set -- $(bbox_in_shot $color)
	[ "$1" != none ] && [ "${5:-0}" -ge 5000 ] ||
		fail "colour $color shows ${5:-0} pixels, want 5000 or more (see $FW_SHOT)"
done
# The translucent window shows only blended with what is below it.
set -- $(bbox_in_shot ee2288)
[ "$1" = none ] || fail "the translucent window shows unblended (see $FW_SHOT)"

cmp "$FW_TMP/scene.ppm" "$FW_TMP/direct.ppm" ||
	fail "--render direct and --render scene painted different pixels (see $FW_TMP/scene.ppm, $FW_TMP/direct.ppm)"
pass
