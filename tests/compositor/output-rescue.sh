#!/bin/sh
# Windows that an output's move leaves outside every output move onto the
# nearest output, each as little as it must, so they keep their places relative
# to each other rather than piling up where only the top one shows.
. "$(dirname "$0")/lib.sh"
need_prog grim
need_prog wlr-randr

fw_start --no-xwayland --outputs 2 --output-size 640x480
# New windows open on the output under the pointer: the one on the right.
"$FW_TEST_POINTER" move 960 240 || fail "fw-test-pointer failed"
n=0
for color in 3366cc cc6633; do
	n=$((n + 1))
	start_bg "$FW_TEST_CLIENT" --size 200x150 --color $color \
		>"$FW_TMP/client-$n.out" 2>"$FW_TMP/client-$n.err"
	wait_until 30 "window $n to map" has_line "$FW_TMP/client-$n.out" '^mapped'
	wait_color_settled 30 $color 20000
	set -- $BBOX
	log "window $n ($color) at $1,$2"
	[ "$1" -ge 640 ] || fail "window $n opened at $1,$2, not on the right output"
done

# The right output moves below the left one, out from under its windows,
# and stays in the layout.
right=$(wlr-randr | awk '/^[^ ]/ { name = $1 } /Position: 640,0/ { print name }')
[ -n "$right" ] || fail "no output at 640,0: $(wlr-randr)"
wlr-randr --output "$right" --pos 0,480 2>"$FW_TMP/randr.err" ||
	fail "wlr-randr: $(cat "$FW_TMP/randr.err")"
# Each window shows, and inside the layout's width. They overlap as they
# did before: the lower one shows a strip above the upper one's title.
for color in 3366cc cc6633; do
	wait_color_settled 30 $color 1000
	set -- $BBOX
	log "after: $color at $1,$2 ${3}x$4"
	[ $(($1 + $3)) -le 640 ] ||
		fail "$color at $1,$2 ${3}x$4 is not inside the outputs"
done
pass
