#!/bin/sh
# A window open before a bar takes its exclusive zone moves out of the
# zone, not only a maximized one: a plain window at the top moves down
# below the bar, and one too tall for what the bar leaves also shrinks.
# With one output and with two (the bar on the first).
. "$(dirname "$0")/lib.sh"
need_prog grim

# expect_box COLOR X Y W H: the colour fills exactly that box on screen.
expect_box() {
	box_is() {
		shows_color "$1" 1 || return 1
		set -- "$@" $BBOX
		[ "$6 $7 $8 $9" = "$2 $3 $4 $5" ] && [ "${10}" -eq $(($4 * $5)) ]
	}
	wait_until 20 "colour $1 filling $4x$5 at $2,$3" box_is "$@"
	log "$1 fills $4x$5 at $2,$3"
}

# expect_left COLOR X Y H: what shows of the colour (a window in front
# hides the rest) starts at X,Y and is H high.
expect_left() {
	left_is() {
		shows_color "$1" 1 || return 1
		set -- "$@" $BBOX
		[ "$5 $6 $8" = "$2 $3 $4" ]
	}
	wait_until 20 "colour $1 at $2,$3, $4 high" left_is "$@"
	log "$1 shows at $2,$3, $4 high"
}

for outputs in 1 2; do
	log "with $outputs output(s)"
	fw_start --no-xwayland --outputs "$outputs"
	# Cascaded from the output's corner: border 2 and title bar 20.
	start_bg "$FW_TEST_CLIENT" --size 300x200 --color 3366cc >"$FW_TMP/plain-$outputs.out"
	wait_until 30 "the plain window to map" has_line "$FW_TMP/plain-$outputs.out" '^mapped'
	expect_box 3366cc 2 22 300 200
	# Its frame, 714 high, fits the output's 720 but not what a bar of 30 leaves.
	start_bg "$FW_TEST_CLIENT" --size 400x690 --color 33cc66 >"$FW_TMP/tall-$outputs.out"
	wait_until 30 "the tall window to map" has_line "$FW_TMP/tall-$outputs.out" '^mapped'
	expect_box 33cc66 34 28 400 690

	start_bg "$FW_TEST_LAYER" --anchor tlr --size 0x30 --zone 30 --color aa3300 \
		>"$FW_TMP/bar-$outputs.out" 2>"$FW_TMP/bar-$outputs.err"
	wait_until 30 "the bar to map" has_line "$FW_TMP/bar-$outputs.out" '^mapped'
	expect_box aa3300 0 0 1280 30
	# Both below the bar; the tall one as tall as the rest leaves.
	expect_box 33cc66 34 52 400 666
	expect_left 3366cc 2 52 200
	fw_stop
	[ "$FW_STATUS" -eq 0 ] || fail "fairway exited $FW_STATUS on SIGTERM"
done
pass
