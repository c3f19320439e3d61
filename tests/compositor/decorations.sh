#!/bin/sh
# Who draws a window's title bar is agreed with the window: fairway frames
# a window that asks for server-side decorations (xdg-decoration or KDE's
# server-decoration) or states no preference, and leaves alone one that
# asks for client-side decorations or speaks neither protocol. The
# configuration's `decorations` line sets what "no preference" gets. The
# bar's close and maximize buttons work.
. "$(dirname "$0")/lib.sh"
need_prog grim

# The focused bar's colour (compositor/view.c), with rounding.
bar=3366b3

# bar_pixels X Y W: pixels of the bar's colour in the band above a window
# whose content is at X,Y and W wide (border 2, bar 20).
bar_pixels() {
	"$PPM_PROBE" "$FW_SHOT" count-in $(($1 - 2)) $(($2 - 22)) $(($3 + 4)) 20 \
		$bar 3
}

# framed MODE yes|no [CONFIG]: a window asking MODE, framed or not.
framed() {
	mode=$1 want=$2
	shift 2
	fw_start --no-xwayland "$@"
	color=cc6633
	start_bg "$FW_TEST_CLIENT" --size 300x200 --color $color \
		--decoration "$mode" >"$FW_TMP/$mode.out" 2>"$FW_TMP/$mode.err"
	client=$BG_PID
	wait_until 30 "the $mode window to map" has_line "$FW_TMP/$mode.out" '^mapped'
	wait_color_settled 30 $color 50000
	set -- $BBOX
	n=$(bar_pixels $1 $2 $3)
	log "$mode ($*): $n bar pixels above the window ($FW_SHOT)"
	case $want in
	yes) [ "$n" -gt 1000 ] || fail "the $mode window has no title bar ($FW_SHOT)" ;;
	no) [ "$n" -eq 0 ] || fail "the $mode window has fairway's title bar ($FW_SHOT)" ;;
	esac
	stop_pid "$client"
	fw_stop
}

framed server yes
grep -q '^decoration-configure server' "$FW_TMP/server.out" ||
	fail "server-side asked, not answered: $(cat "$FW_TMP/server.out")"
framed client no
grep -q '^decoration-configure client' "$FW_TMP/client.out" ||
	fail "client-side asked, not answered: $(cat "$FW_TMP/client.out")"
framed unset yes
framed none no
framed kde-server yes
framed kde-client no
grep -q '^kde-mode client' "$FW_TMP/kde-client.out" ||
	fail "KDE client mode not answered: $(cat "$FW_TMP/kde-client.out")"

# The default for no preference comes from the configuration.
printf 'decorations client\n' >"$FW_TMP/client.conf"
framed unset no --config "$FW_TMP/client.conf"
grep -q '^decoration-configure client' "$FW_TMP/unset.out" ||
	fail "with 'decorations client', no preference got: $(cat "$FW_TMP/unset.out")"

# The buttons: maximize (second from the right), then close (rightmost).
fw_start --no-xwayland
color=3366cc
mkfifo "$FW_TMP/cmd"
"$FW_TEST_CLIENT" --size 300x200 --color $color --commands <"$FW_TMP/cmd" \
	>"$FW_TMP/buttons.out" 2>"$FW_TMP/buttons.err" &
client=$!
FW_HELPERS="$FW_HELPERS $client"
exec 9>"$FW_TMP/cmd"
wait_until 30 "the window to map" has_line "$FW_TMP/buttons.out" '^mapped'
wait_color_settled 30 $color 50000
set -- $BBOX
x=$1 y=$2 w=$3
# The bar spans x-2 .. x+w+2; each button is 20 wide.
"$FW_TEST_POINTER" move $((x + w + 2 - 30)) $((y - 12)) click \
	2>"$FW_TMP/pointer.err" || fail "fw-test-pointer: $(cat "$FW_TMP/pointer.err")"
wait_until 10 "a maximized configure" has_line "$FW_TMP/buttons.out" \
	'^toplevel-configure [0-9]* [0-9]* maximized'
log "maximize button: $(grep maximized "$FW_TMP/buttons.out" | head -n 1)"
wait_color_settled 30 $color 500000
set -- $BBOX
x=$1 y=$2 w=$3
"$FW_TEST_POINTER" move $((x + w + 2 - 10)) $((y - 12)) click \
	2>"$FW_TMP/pointer.err" || fail "fw-test-pointer: $(cat "$FW_TMP/pointer.err")"
wait_until 10 "the close request" has_line "$FW_TMP/buttons.out" '^close'
log "close button: the window was asked to close"
exec 9>&-
wait "$client"
fw_stop

# An X window is framed unless its Motif hints ask for no decorations.
if command -v xterm >/dev/null 2>&1 && command -v xprop >/dev/null 2>&1; then
	fw_start
	start_bg xterm -T fw-motif -bg '#cc6633' -fg '#cc6633' \
		>"$FW_TMP/xterm.out" 2>&1
	wait_color_settled 30 cc6633 50000
	set -- $BBOX
	x=$1 y=$2 w=$3
	n=$(bar_pixels $x $y $w)
	[ "$n" -gt 1000 ] || fail "the X window has no title bar ($FW_SHOT)"
	xprop -name fw-motif -f _MOTIF_WM_HINTS 32c \
		-set _MOTIF_WM_HINTS "2, 0, 0, 0, 0" ||
		fail "xprop could not set the Motif hints"
	unframed() {
		screenshot || return 1
		n=$(bar_pixels $x $y $w)
		FW_SEEN="$n bar pixels in $FW_SHOT"
		[ "$n" -eq 0 ]
	}
	wait_until 10 "the frame to go with Motif's no decorations" unframed
	log "X window: framed, then unframed by its Motif hints"
	fw_stop
else
	log "xterm or xprop missing: Motif hints are not checked"
fi
pass
