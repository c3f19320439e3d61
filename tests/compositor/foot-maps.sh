#!/bin/sh
# foot maps a window, and its background colour shows in a screenshot as one
# window-sized rectangle inside the output.
. "$(dirname "$0")/lib.sh"
need_prog foot
need_prog grim

fw_start
color=ff00ff
start_bg foot -c /dev/null -o colors.background=$color -o pad=0x0 \
	-o initial-window-size-pixels=640x400 sleep 1000 \
	>"$FW_TMP/foot.out" 2>"$FW_TMP/foot.err"
wait_color_settled 30 $color 20000
set -- $BBOX
x=$1 y=$2 w=$3 h=$4 count=$5
log "foot background at ${x},${y} size ${w}x${h} ($count pixels)"

# initial-window-size-pixels covers foot's own decorations if it draws any,
# so the background is at most 640x400 and most of it.
[ "$w" -ge 400 ] && [ "$w" -le 650 ] && [ "$h" -ge 250 ] && [ "$h" -le 410 ] ||
	fail "foot's background is ${w}x${h}, want about 640x400 (see $FW_SHOT)"
# Solid apart from the cursor: most of the box has the colour.
[ $((count * 10)) -ge $((w * h * 9)) ] ||
	fail "only $count of ${w}x${h} pixels in foot's box are $color (see $FW_SHOT)"
# Placed inside the 1280x720 output (the size check catches clipping).
[ "$x" -ge 0 ] && [ "$y" -ge 0 ] && [ $((x + w)) -le 1280 ] && [ $((y + h)) -le 720 ] ||
	fail "foot's window at ${x},${y} ${w}x${h} is not inside the output (see $FW_SHOT)"
# Outside the window no pixel has the colour: the box is the window.
outside=$("$PPM_PROBE" "$FW_SHOT" pixel $((x > 0 ? x - 1 : x + w)) "$y")
[ "$outside" != $color ] || fail "colour $color outside foot's box (see $FW_SHOT)"
pass
