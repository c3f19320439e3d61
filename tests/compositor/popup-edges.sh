#!/bin/sh
# Popups stay whole on the output as their positioners allow: one hanging
# from a window's bottom edge, where the output ends before it does, flips
# above the edge or slides up; one over the top edge of a window whose
# client draws a shadow around it (its window geometry inside its
# surface, as GTK's) slides down onto the output, not a shadow's width
# short of it.
. "$(dirname "$0")/lib.sh"
need_prog grim

# popup_whole NAME COLOR W H CLIENT_ARGS...: the popup shows whole and on
# the output.
popup_whole() {
	name=$1 color=$2 w=$3 h=$4
	shift 4
	start_bg "$FW_TEST_CLIENT" --popup "${w}x$h" --popup-color "$color" "$@" \
		>"$FW_TMP/$name.out" 2>"$FW_TMP/$name.err"
	client=$BG_PID
	wait_until 30 "popup-mapped from the $name client" \
		has_line "$FW_TMP/$name.out" '^popup-mapped'
	wait_color_settled 30 "$color" $((w * h / 4))
	set -- $BBOX
	log "$name: popup on screen at $1,$2 ${3}x$4"
	[ "$3" -eq "$w" ] && [ "$4" -eq "$h" ] ||
		fail "$name: the popup shows ${3}x$4, not whole ${w}x$h (see $FW_SHOT)"
	[ "$2" -ge 0 ] && [ $(($2 + $4)) -le 720 ] ||
		fail "$name: the popup spans y $2..$(($2 + $4)), outside the output (see $FW_SHOT)"
	stop_pid "$client"
}

fw_start --no-xwayland
# 500 high from the output's top: a 300-high popup below it would end
# past the 720-high output.
popup_whole bottom 00ff00 200 300 --size 400x500 --color 3366cc --popup-edge bottom
popup_whole top-shadow ff00ff 200 100 --size 400x300 --color 3366cc \
	--shadow 30 --popup-edge top
pass
