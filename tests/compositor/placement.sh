#!/bin/sh
# New windows are cascaded: each at its own spot, each fully inside the
# output, even one nearly as big as the output after a few others.
. "$(dirname "$0")/lib.sh"
need_prog grim

fw_start --no-xwayland
corners=""
n=0
for color in 3366cc cc6633 33cc66; do
	n=$((n + 1))
	start_bg "$FW_TEST_CLIENT" --size 400x300 --color $color \
		>"$FW_TMP/client-$n.out" 2>"$FW_TMP/client-$n.err"
	wait_until 30 "window $n to map" has_line "$FW_TMP/client-$n.out" '^mapped'
	wait_color_settled 30 $color 50000
	set -- $BBOX
	log "window $n ($color) at $1,$2 $3x$4"
	# Windows overlap, but a cascade leaves each one's top and left edges
	# visible, so the box of its colour is the whole window.
	[ "$3" -eq 400 ] && [ "$4" -eq 300 ] ||
		fail "window $n shows ${3}x${4}, want 400x300 (see $FW_SHOT)"
	case " $corners " in
	*" $1,$2 "*) fail "window $n placed at $1,$2 on top of an earlier one" ;;
	esac
	corners="$corners $1,$2"
done

color=cccc33
start_bg "$FW_TEST_CLIENT" --size 1200x680 --color $color \
	>"$FW_TMP/client-big.out" 2>"$FW_TMP/client-big.err"
wait_until 30 "the big window to map" has_line "$FW_TMP/client-big.out" '^mapped'
wait_color_settled 30 $color 100000
set -- $BBOX
bx=$1 by=$2 bw=$3 bh=$4
# The compositor may shrink it to fit; what shows must be all it was given.
set -- $(grep '^configured' "$FW_TMP/client-big.out" | tail -n 1)
cw=$2 ch=$3
log "1200x680 window configured ${cw}x${ch}, shows at $bx,$by ${bw}x${bh}"
[ "$bw" -eq "$cw" ] && [ "$bh" -eq "$ch" ] ||
	fail "the ${cw}x${ch} window shows ${bw}x${bh}: part of it is outside the 1280x720 output (see $FW_SHOT)"
pass
