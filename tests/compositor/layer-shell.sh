#!/bin/sh
# Layer surfaces as the wlr-layer-shell protocol places them: by anchors,
# margins and size; exclusive zones keep maximized windows clear of bars
# and windows are fitted again when a zone changes or goes; keyboard
# interactivity: exclusive holds the keyboard against new windows and
# gives it back to the front window, on_demand takes it on a click, none
# never; pointer presses reach layer surfaces.
. "$(dirname "$0")/lib.sh"
need_prog grim
need_prog wtype

fw_start --no-xwayland

# layer NAME ARGS...: starts a test layer surface and waits for it to map.
layer() {
	name=$1
	shift
	out="$FW_TMP/$name.out"
	# Not holding the top bar's fifo open (fd 9).
	start_bg "$FW_TEST_LAYER" "$@" >"$out" 2>"$FW_TMP/$name.err" 9>&-
	eval "pid_$name=\$BG_PID"
	wait_until 30 "layer surface $name to map" has_line "$out" '^mapped'
}

# window NAME ARGS...: starts a test window and waits for it to map.
window() {
	name=$1
	shift
	out="$FW_TMP/$name.out"
	start_bg "$FW_TEST_CLIENT" "$@" >"$out" 2>"$FW_TMP/$name.err" 9>&-
	eval "pid_$name=\$BG_PID"
	wait_until 30 "window $name to map" has_line "$out" '^mapped'
}

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

count_lines() {
	grep -c -e "$2" "$1" 2>/dev/null || true
}

has_count() {
	[ "$(count_lines "$1" "$2")" -ge "$3" ]
}

# --- placement by anchors, margins and size ---
layer corner --anchor tr --size 100x50 --margin 10,20,0,0 --color aa0000
expect_box aa0000 1160 10 100 50
stop_pid "$pid_corner"

layer bottom --anchor blr --size 0x40 --margin 0,30,5,10 --color 00aa00
expect_box 00aa00 10 675 1240 40
stop_pid "$pid_bottom"

layer centred --anchor - --size 200x100 --color 0000aa
expect_box 0000aa 540 310 200 100
stop_pid "$pid_centred"

# Anchored left and right with a width of its own: centred between the
# margins, not stretched.
layer between --anchor lr --size 300x60 --margin 0,0,0,100 --color aaaa00
expect_box aaaa00 540 330 300 60
stop_pid "$pid_between"

# --- exclusive zones ---
# The top bar reads commands from a fifo, held open on fd 9.
mkfifo "$FW_TMP/topbar.cmd"
"$FW_TEST_LAYER" --anchor tlr --size 0x30 --zone 30 --color aa3300 \
	--commands <"$FW_TMP/topbar.cmd" >"$FW_TMP/topbar.out" \
	2>"$FW_TMP/topbar.err" &
pid_topbar=$!
FW_HELPERS="$FW_HELPERS $pid_topbar"
exec 9>"$FW_TMP/topbar.cmd"
wait_until 30 "the top bar to map" has_line "$FW_TMP/topbar.out" '^mapped'
layer leftbar --anchor tbl --size 50x0 --zone 50 --margin 0,0,0,5 --color 3300aa
expect_box aa3300 0 0 1280 30
# The left bar stretches between the top bar's zone and the bottom edge.
expect_box 3300aa 5 30 50 690

window max --maximized --color 3366cc
# Border 2 and title bar 20 around the window, inside what the bars leave.
expect_box 3366cc 57 52 1221 666

# The top bar's zone grows: the left bar and the window move down.
echo "zone 80" >&9
expect_box 3300aa 5 80 50 640
expect_box 3366cc 57 102 1221 616

# The top bar goes: both take the space back.
exec 9>&-
top_bar_gone() {
	! alive "$pid_topbar"
}
wait_until 20 "the top bar to exit" top_bar_gone
expect_box 3300aa 5 0 50 720
expect_box 3366cc 57 22 1221 696
stop_pid "$pid_leftbar"
expect_box 3366cc 2 22 1276 696
stop_pid "$pid_max"

# --- keyboard interactivity ---
window first --size 300x200 --color 33cc66
wait_until 20 "keyboard focus on the first window" \
	has_line "$FW_TMP/first.out" '^keyboard-enter'

layer launcher --anchor - --size 200x100 --keyboard exclusive --color cc33cc
wait_until 20 "keyboard focus on the exclusive layer surface" \
	has_line "$FW_TMP/launcher.out" '^keyboard-enter'
wait_until 20 "the first window to lose the keyboard" \
	has_line "$FW_TMP/first.out" '^keyboard-leave'

# A window mapped meanwhile does not take the keyboard from it.
window second --size 300x200 --color 66cc33
wtype -k a 2>"$FW_TMP/wtype.err" || fail "wtype failed: $(cat "$FW_TMP/wtype.err")"
wait_until 20 "the key at the exclusive layer surface" \
	has_line "$FW_TMP/launcher.out" '^key [0-9]* pressed'
has_line "$FW_TMP/second.out" '^keyboard-enter' &&
	fail "a window mapped under an exclusive layer surface took the keyboard"
has_line "$FW_TMP/launcher.out" '^keyboard-leave' &&
	fail "the exclusive layer surface lost the keyboard"
has_line "$FW_TMP/second.out" '^key ' &&
	fail "a key typed at the exclusive layer surface reached a window"

# It goes: the keyboard returns to the front window.
stop_pid "$pid_launcher"
wait_until 20 "keyboard focus back on the front window" \
	has_line "$FW_TMP/second.out" '^keyboard-enter'
log "exclusive: kept the keyboard, gave it back to the front window"

# click X Y [AWAIT_FILE]: a left click at X,Y, once the pointer entered
# the client writing AWAIT_FILE.
click() {
	if [ $# -eq 3 ]; then
		set -- move "$1" "$2" await "$3" pointer-enter click
	else
		set -- move "$1" "$2" click
	fi
	"$FW_TEST_POINTER" "$@" 2>"$FW_TMP/pointer.err" ||
		fail "fw-test-pointer failed: $(cat "$FW_TMP/pointer.err")"
}

# on_demand, in the bottom-right corner clear of the windows: the keyboard
# goes to it on a click, and back to a window on a click there.
wait_color_settled 20 66cc33 50000
set -- $BBOX
wx=$(($1 + 50)) wy=$(($2 + 50))
layer panel --layer bottom --anchor br --size 120x80 --keyboard on_demand \
	--color 22aacc
click $wx $wy
panel_enters=$(count_lines "$FW_TMP/panel.out" '^keyboard-enter')
second_enters=$(count_lines "$FW_TMP/second.out" '^keyboard-enter')
click 1200 680 "$FW_TMP/panel.out"
wait_until 20 "the press to reach the on_demand surface" \
	has_line "$FW_TMP/panel.out" '^button 272 pressed'
wait_until 20 "keyboard focus on the clicked on_demand surface" \
	has_count "$FW_TMP/panel.out" '^keyboard-enter' $((panel_enters + 1))
wait_until 20 "the window to lose the keyboard to it" \
	has_count "$FW_TMP/second.out" '^keyboard-leave' "$second_enters"
click $wx $wy
wait_until 20 "the window to take the keyboard back on a click" \
	has_count "$FW_TMP/second.out" '^keyboard-enter' $((second_enters + 1))
wait_until 20 "the on_demand surface to lose the keyboard" \
	has_line "$FW_TMP/panel.out" '^keyboard-leave'
stop_pid "$pid_panel"

# none: a click gives it nothing.
layer widget --layer bottom --anchor bl --size 120x80 --color aacc22
click 60 680 "$FW_TMP/widget.out"
wait_until 20 "the press to reach the surface" \
	has_line "$FW_TMP/widget.out" '^button 272 released'
has_line "$FW_TMP/widget.out" '^keyboard-enter' &&
	fail "a layer surface without keyboard interactivity got the keyboard"
[ "$(count_lines "$FW_TMP/second.out" '^keyboard-leave')" -lt \
	"$(count_lines "$FW_TMP/second.out" '^keyboard-enter')" ] ||
	fail "the window lost the keyboard to a click on a surface without keyboard interactivity"
pass
