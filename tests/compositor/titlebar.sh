#!/bin/sh
# Title bars show the window's title: pixels of the title's colour (white)
# appear in the bar, and change when the title changes (xdg_toplevel's
# set_title, and an X window's WM_NAME under XWayland); a title too long
# for the bar stays inside it. Both render paths (fairway's own pass and
# wlr_scene's) paint the text and repaint it when it changes.
. "$(dirname "$0")/lib.sh"
need_prog grim

# White, and what antialiasing leaves near it.
text=ffffff

# bar_region X Y W: the title bar above a window whose content is at X,Y
# and W wide (border 2, bar 20), less the maximize and close buttons at its
# right end (two 20-pixel boxes), which are drawn in the title's colour.
bar_region() {
	echo "$(($1 - 2)) $(($2 - 22)) $(($3 + 4 - 40)) 20"
}

# title_box REGION: the box of the title colour's pixels in that region of
# a fresh screenshot, "none" without any.
title_box() {
	screenshot || return 1
	TITLE=$("$PPM_PROBE" "$FW_SHOT" bbox-in $1 $text 40)
	FW_SEEN="title pixels in the bar at $1: $TITLE in $FW_SHOT"
}

# title_wider_than REGION WIDTH, title_narrower_than REGION WIDTH: the
# title's pixels (10 or more) span more, or less, than WIDTH.
title_wider_than() {
	region=$1 min=$2
	title_box "$region" || return 1
	[ "$TITLE" != none ] || return 1
	set -- $TITLE
	[ "$3" -gt "$min" ] && [ "$5" -ge 10 ]
}

title_narrower_than() {
	region=$1 max=$2
	title_box "$region" || return 1
	[ "$TITLE" != none ] || return 1
	set -- $TITLE
	[ "$3" -lt "$max" ] && [ "$5" -ge 10 ]
}

# xdg_titles MODE: an xdg window's title, then a longer one, then one far
# too long for its bar, with --render MODE.
xdg_titles() {
	fw_start --no-xwayland --render "$1"
	mkfifo "$FW_TMP/$1.cmd"
	"$FW_TEST_CLIENT" --size 400x200 --color 3366cc --title ab --commands \
		<"$FW_TMP/$1.cmd" >"$FW_TMP/$1-client.out" \
		2>"$FW_TMP/$1-client.err" &
	client=$!
	FW_HELPERS="$FW_HELPERS $client"
	exec 9>"$FW_TMP/$1.cmd"
	wait_until 30 "the window to map" has_line "$FW_TMP/$1-client.out" '^mapped'
	wait_color_settled 30 3366cc 50000
	set -- "$1" $BBOX
	region=$(bar_region $2 $3 $4)
	bar_right=$(($2 + $4 + 2 - 40))

	wait_until 20 "the title 'ab' in the bar" title_narrower_than "$region" 30
	set -- $TITLE
	log "$mode: title 'ab' drawn: $TITLE in the bar at $region"
	short=$3

	echo "title fairway shows this title" >&9
	wait_until 20 "the longer title in the bar" \
		title_wider_than "$region" $((short + 100))
	log "$mode: longer title drawn: $TITLE"

	long="a title much too long for a bar of four hundred pixels, which"
	echo "title $long $long" >&9
	wait_until 20 "the too long title to fill the bar" \
		title_wider_than "$region" 300
	set -- $TITLE
	[ $(($1 + $3)) -le "$bar_right" ] ||
		fail "$mode: the title runs out of its bar: $TITLE, bar ends at $bar_right"
	log "$mode: too long title cut short inside the bar: $TITLE"
	exec 9>&-
	wait "$client"
	fw_stop
	[ "$FW_STATUS" -eq 0 ] || fail "fairway --render $mode exited $FW_STATUS"
}

mode=direct
xdg_titles direct
mode=scene
xdg_titles scene

# An X window's title, changed by the client.
if command -v xterm >/dev/null 2>&1 && command -v wtype >/dev/null 2>&1; then
	fw_start
	start_bg xterm -T ab -bg '#cc6633' -fg '#cc6633' -geometry 60x10 \
		-e sh -c 'read line; printf "\033]2;%s\007" "$line"; sleep 600' \
		>"$FW_TMP/xterm.out" 2>"$FW_TMP/xterm.err"
	wait_color_settled 30 cc6633 20000
	set -- $BBOX
	region=$(bar_region $1 $2 $3)
	mode=xwayland
	wait_until 20 "the X window's title 'ab' in the bar" \
		title_narrower_than "$region" 30
	set -- $TITLE
	short=$3
	log "xwayland: title 'ab' drawn: $TITLE in the bar at $region"
	# A lone Shift first: Xwayland drops the key that comes with wtype's
	# keymap (xterm-typing.sh).
	wtype -k Shift_L 'fairway shows this title' -k Return \
		2>"$FW_TMP/wtype.err" || fail "wtype failed: $(cat "$FW_TMP/wtype.err")"
	wait_until 20 "the X window's new title in the bar" \
		title_wider_than "$region" $((short + 100))
	log "xwayland: new title drawn: $TITLE"
else
	log "xterm or wtype missing: the XWayland title is not checked"
fi
pass
