#!/bin/sh
# Windows fit what the output leaves for them (the output less the layer
# shell's exclusive zones): a new window that chose a larger size is told to
# fit, and maximize and interactive resize stay inside that space;
# fullscreen takes the whole output. An X window that asks for more than
# fits is given what fits.
. "$(dirname "$0")/lib.sh"
need_prog grim

fw_start
# A 30-pixel panel across the top: the usable area is 1280x690 at (0, 30).
start_bg "$FW_TEST_LAYER" --anchor tlr --size 0x30 --zone 30 --color 222222 \
	>"$FW_TMP/panel.out" 2>"$FW_TMP/panel.err"
wait_color 30 222222 30000

# The frame: 2-pixel borders and a 20-pixel bar; the largest window that
# fits is 1276x666.
max_w=1276 max_h=666
color=3366cc
mkfifo "$FW_TMP/cmd"
"$FW_TEST_CLIENT" --size 2000x1500 --color $color --commands <"$FW_TMP/cmd" \
	>"$FW_TMP/big.out" 2>"$FW_TMP/big.err" &
client=$!
FW_HELPERS="$FW_HELPERS $client"
exec 9>"$FW_TMP/cmd"
fits() {
	set -- $(grep '^configured' "$FW_TMP/big.out" | tail -n 1)
	FW_SEEN="last configured ${2:-?}x${3:-?}"
	[ -n "${2:-}" ] && [ "$2" -le $max_w ] && [ "$3" -le $max_h ]
}
wait_until 30 "the 2000x1500 window to be told to fit" fits
wait_color_settled 30 $color 100000
set -- $BBOX
log "2000x1500 window: $FW_SEEN, shows at $1,$2 ${3}x$4"
[ "$2" -ge 52 ] && [ $(($1 + $3)) -le 1278 ] && [ $(($2 + $4)) -le 718 ] ||
	fail "the window is not inside the usable area: $BBOX ($FW_SHOT)"

echo maximize >&9
wait_until 10 "a maximized configure" has_line "$FW_TMP/big.out" \
	"^toplevel-configure $max_w $max_h .*maximized"
log "maximized to ${max_w}x$max_h, below the panel"
echo unmaximize >&9
exec 9>&-
wait "$client"

# Interactive resize: dragged far past the output's corner, the window
# stops at the usable area's edge.
start_bg "$FW_TEST_CLIENT" --size 300x200 --color cc6633 --resize-on-click \
	>"$FW_TMP/resize.out" 2>"$FW_TMP/resize.err"
wait_until 30 "the window to map" has_line "$FW_TMP/resize.out" '^mapped'
wait_color_settled 30 cc6633 50000
set -- $BBOX
x=$1 y=$2
"$FW_TEST_POINTER" move $((x + 150)) $((y + 100)) press left \
	move 2000 2000 release left 2>"$FW_TMP/pointer.err" ||
	fail "fw-test-pointer: $(cat "$FW_TMP/pointer.err")"
wait_color_settled 30 cc6633 50000
set -- $BBOX
log "resized to $3x$4 at $1,$2"
[ $(($1 + $3)) -le 1278 ] && [ $(($2 + $4)) -le 718 ] ||
	fail "the resize ran past the output: $BBOX ($FW_SHOT)"

# An X window asking for more than fits.
if command -v xterm >/dev/null 2>&1 && command -v xwininfo >/dev/null 2>&1; then
	start_bg xterm -T fw-big -geometry 400x120 >"$FW_TMP/xterm.out" 2>&1
	xsize() {
		FW_SEEN=$(xwininfo -name fw-big 2>&1 | sed -n 's/.*\(Width\|Height\): //p' | tr '\n' ' ')
		set -- $FW_SEEN
		[ -n "${2:-}" ] && [ "$1" -le $max_w ] && [ "$2" -le $max_h ]
	}
	wait_until 30 "the big xterm to fit" xsize
	log "xterm -geometry 400x120: $FW_SEEN"
fi
pass
