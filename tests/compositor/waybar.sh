#!/bin/sh
# waybar's exclusive zone keeps a maximized window off the bar, over
# swaybg's wallpaper (which, with a zone of -1, stays under the bar); when
# the bar goes, or comes back at the other edge and another height, the
# maximized window is fitted to what is left again. A foot window open
# before the bar moves out from under it.
. "$(dirname "$0")/lib.sh"
need_prog grim
need_prog waybar
need_prog swaybg
need_prog dbus-daemon

fw_start --no-xwayland

# waybar (0.10 and later) asks the desktop portal for the colour scheme at
# start and exits when it finds no session bus. A bus of the test's own,
# with nothing to activate, answers that no portal is there at once.
cat >"$FW_TMP/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
	<type>session</type>
	<listen>unix:path=$FW_TMP/bus</listen>
	<auth>EXTERNAL</auth>
	<policy context="default">
		<allow send_destination="*" eavesdrop="true"/>
		<allow eavesdrop="true"/>
		<allow own="*"/>
	</policy>
</busconfig>
EOF
start_bg dbus-daemon --config-file="$FW_TMP/bus.conf" --nofork --nopidfile \
	--print-address=1 >"$FW_TMP/dbus.out" 2>"$FW_TMP/dbus.err"
wait_until 20 "the session bus" has_line "$FW_TMP/dbus.out" '^unix:'
DBUS_SESSION_BUS_ADDRESS=$(head -n 1 "$FW_TMP/dbus.out")
export DBUS_SESSION_BUS_ADDRESS

wall=123456
start_bg swaybg -c "#$wall" >"$FW_TMP/swaybg.out" 2>"$FW_TMP/swaybg.err"
wait_color 30 $wall $((1280 * 720))
log "swaybg paints the whole output $wall"

# bar POSITION HEIGHT: starts waybar with a one-colour bar (text in the
# bar's colour, so the bar is one rectangle on screen).
bar=22aa88
bar() {
	mkdir -p "$XDG_CONFIG_HOME/waybar"
	cat >"$XDG_CONFIG_HOME/waybar/config" <<EOF
{
	"layer": "top",
	"position": "$1",
	"height": $2,
	"modules-left": ["clock"],
	"clock": {"format": "fairway"}
}
EOF
	cat >"$XDG_CONFIG_HOME/waybar/style.css" <<EOF
* { font-family: sans-serif; font-size: 12px; min-height: 0; border: none; }
window#waybar { background-color: #$bar; color: #$bar; }
EOF
	start_bg waybar >"$FW_TMP/waybar.out" 2>"$FW_TMP/waybar.err"
	waybar_pid=$BG_PID
}

# expect_box COLOR X Y W H: the colour fills exactly that box on screen.
box_is() {
	shows_color "$1" 1 || return 1
	set -- "$@" $BBOX
	[ "$6 $7 $8 $9" = "$2 $3 $4 $5" ] && [ "${10}" -eq $(($4 * $5)) ]
}
expect_box() {
	wait_until 30 "colour $1 filling $4x$5 at $2,$3" box_is "$@"
	log "$1 fills $4x$5 at $2,$3"
}

bar top 30
expect_box $bar 0 0 1280 30
# The wallpaper is under the bar, not moved out of its way.
set -- $(bbox_in_shot $wall)
[ "$1 $2 $3 $4 $5" = "0 30 1280 690 $((1280 * 690))" ] ||
	fail "the wallpaper shows as '$*' next to the bar, want all of 0,30 1280x690 (see $FW_SHOT)"

win=3366cc
start_bg "$FW_TEST_CLIENT" --maximized --color $win \
	>"$FW_TMP/window.out" 2>"$FW_TMP/window.err"
win_pid=$BG_PID
wait_until 30 "the window to map" has_line "$FW_TMP/window.out" '^mapped'
# Maximized below the bar: title bar 20 and border 2 inside the area left.
expect_box $win 2 52 1276 666
shows_color $bar 1 && box_is $bar 0 0 1280 30 ||
	fail "the maximized window covers part of the bar: $bar shows as $BBOX (see $FW_SHOT)"
log "the maximized window leaves the bar uncovered"

# The bar goes: the window takes its place.
stop_pid "$waybar_pid"
expect_box $win 2 22 1276 696

# It comes back at the bottom, taller: the window makes room again.
bar bottom 40
expect_box $bar 0 680 1280 40
expect_box $win 2 22 1276 656

# A window open before the bar, not maximized: foot, near the output's
# top, moves out from under the bar when it comes.
stop_pid "$waybar_pid"
stop_pid "$win_pid"
if command -v foot >/dev/null 2>&1; then
	foot=aa5522
	start_bg foot -c /dev/null -o colors.background=$foot -o pad=0x0 \
		-o initial-window-size-pixels=400x300 sleep 1000 \
		>"$FW_TMP/foot.out" 2>"$FW_TMP/foot.err"
	wait_color_settled 30 $foot 100000
	set -- $BBOX
	log "foot at $1,$2 before the bar"
	foot_x=$1
	[ "$2" -lt 82 ] || fail "foot mapped at $1,$2, not near the top (see $FW_SHOT)"
	bar top 60
	expect_box $bar 0 0 1280 60
	# Its frame (border 2, title bar 20) just below the bar; foot's own
	# text and cursor take a few pixels of the box.
	foot_at() {
		shows_color $foot 100000 || return 1
		set -- $BBOX
		[ "$1 $2" = "$foot_x 82" ]
	}
	wait_until 30 "foot at $foot_x,82, below the bar" foot_at
	log "foot moved below the bar: $BBOX"
fi
pass
