#!/bin/sh
# Windows fit the output again when its scale changes, through the gate
# and with --scheduler off: a window that fills the 1280x720 output at
# scale 1 (fw-test-client, then foot), after `wlr-randr --scale 1.5`, is
# told a size that fits the 853x480 the output now is, and shows whole on
# it: its colour ends before the frame's right and bottom borders, which
# the output's edge would cut off if it ran past. A fullscreen window is
# told the output's new size. The cursor is drawn at the output's scale.
. "$(dirname "$0")/lib.sh"
need_prog wlr-randr
: "${FW_TEST_CAPTURE:?}" "${FW_TEST_FRACTIONAL:?}"

# The frame: 2-pixel borders and a 20-pixel bar. At scale 1 a window of
# 1276x696 fills the output; at 1.5, 853x480 leaves 849x456.
max_w=849 max_h=456

# shows_whole COLOR: a fresh capture has COLOR inside the output's buffer
# with room for the frame's border on the right and at the bottom.
shows_whole() {
	capture "$FW_TMP/shot-$((FW_CAPTURES + 1)).ppm"
	BBOX=$("$PPM_PROBE" "$FW_SHOT" bbox "$1" 2)
	FW_SEEN="box of $1: $BBOX in $FW_SHOT"
	[ "$BBOX" != none ] || return 1
	set -- $BBOX
	[ "$1" -ge 3 ] && [ "$2" -ge 33 ] &&
		[ $(($1 + $3)) -le 1277 ] && [ $(($2 + $4)) -le 717 ]
}

# fills COLOR: a fresh capture shows COLOR over most of the output.
fills() {
	capture "$FW_TMP/shot-$((FW_CAPTURES + 1)).ppm"
	BBOX=$("$PPM_PROBE" "$FW_SHOT" bbox "$1" 2)
	FW_SEEN="box of $1: $BBOX in $FW_SHOT"
	set -- $BBOX
	[ "${5:-0}" -ge 800000 ]
}

# cursor_shows: a fresh capture has the cursor's white outline and
# nothing else that is not black; CURSOR_H is its height.
cursor_shows() {
	capture "$FW_TMP/shot-$((FW_CAPTURES + 1)).ppm"
	BBOX=$("$PPM_PROBE" "$FW_SHOT" bbox ffffff 16)
	FW_SEEN="cursor box $BBOX in $FW_SHOT"
	set -- $BBOX
	CURSOR_H=${4:-0}
	[ "$BBOX" != none ] && [ "$CURSOR_H" -lt 200 ]
}

randr() {
	wlr-randr --output HEADLESS-1 "$@" >>"$FW_TMP/randr.out" 2>&1 ||
		fail "wlr-randr $*: $(cat "$FW_TMP/randr.out")"
}

# refit NAME COLOR: the window of COLOR fills the output at scale 1, and
# fits it at 1.5.
refit() {
	wait_until 30 "$1 to fill the output at scale 1" fills "$2"
	log "$1 at scale 1: $BBOX"
	randr --scale 1.5
	wait_until 30 "$1 to show whole at scale 1.5" shows_whole "$2"
	log "$1 at scale 1.5: $BBOX in output pixels"
}

for mode in on off; do
	fw_start --no-xwayland --scheduler $mode
	capture_start

	color=3366cc
	out="$FW_TMP/client-$mode.out"
	start_bg "$FW_TEST_CLIENT" --size 1276x696 --color $color >"$out" \
		2>"$FW_TMP/client-$mode.err"
	client=$BG_PID
	refit fw-test-client $color
	fits() {
		set -- $(grep '^toplevel-configure' "$out" | tail -n 1)
		FW_SEEN="last configure ${2:-?}x${3:-?}"
		[ "${2:-0}" -ge 1 ] && [ "$2" -le $max_w ] && [ "$3" -le $max_h ]
	}
	wait_until 10 "a configure that fits ($mode)" fits
	log "$mode: fw-test-client told $FW_SEEN"
	stop_pid "$client"

	# A fullscreen window is told the whole output's new size.
	randr --scale 1
	out="$FW_TMP/fullscreen-$mode.out"
	start_bg "$FW_TEST_FRACTIONAL" --fullscreen >"$out" 2>"$FW_TMP/fullscreen-$mode.err"
	client=$BG_PID
	wait_until 30 "the fullscreen window at 1280x720 ($mode)" \
		has_line "$out" '^drawn 1280 720 1280 720$'
	randr --scale 1.5
	wait_until 30 "the fullscreen window told 853x480 ($mode)" \
		has_line "$out" '^configured 853 480$'
	wait_until 30 "the fullscreen window at 853x480 ($mode)" \
		has_line "$out" '^drawn 853 480 1280 720$'
	log "$mode: the fullscreen window follows the output to 853x480"
	stop_pid "$client"

	if command -v foot >/dev/null 2>&1; then
		randr --scale 1
		color=ff00ff
		start_bg foot -c /dev/null -o colors.background=$color -o pad=0x0 \
			-o initial-window-size-pixels=1276x696 sleep 1000 \
			>"$FW_TMP/foot-$mode.out" 2>"$FW_TMP/foot-$mode.err"
		foot=$BG_PID
		refit foot $color
		stop_pid "$foot"
	fi
	if [ $mode = on ]; then
		# The cursor over the empty background, at 1.5 and at 1: its
		# theme is loaded at the output's scale, so it is larger at 1.5.
		randr --scale 1.5
		"$FW_TEST_POINTER" move 640 360 2>"$FW_TMP/pointer.err" ||
			fail "fw-test-pointer: $(cat "$FW_TMP/pointer.err")"
		wait_until 30 "the cursor at scale 1.5" cursor_shows
		at15=$CURSOR_H
		randr --scale 1
		"$FW_TEST_POINTER" move 640 360 2>"$FW_TMP/pointer.err" ||
			fail "fw-test-pointer: $(cat "$FW_TMP/pointer.err")"
		wait_until 30 "the cursor at scale 1" cursor_shows
		at1=$CURSOR_H
		log "the cursor is $at1 pixels high at scale 1, $at15 at 1.5"
		[ $((at15 * 4)) -ge $((at1 * 5)) ] ||
			fail "the cursor is $at15 pixels high at 1.5, $at1 at 1"
	fi
	capture_stop
	fw_stop
	[ "$FW_STATUS" -eq 0 ] || fail "fairway exited $FW_STATUS ($mode)"
done
pass
