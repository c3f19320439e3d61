#!/bin/sh
# The newer globals, used by one window (fw-test-globals), through the gate
# or, with FW_SCHEDULER=off, libwayland's own dispatch:
# - wp_single_pixel_buffer_v1 and wp_alpha_modifier_v1: its one opaque red
#   pixel, stretched by a viewport, shows as 200x200 of half red over the
#   black background, its wp_tearing_control_v1 hint (async) taken
#   without an error (headless has no page flip to tear);
# - ext_foreign_toplevel_list_v1 lists it with its title and app id;
# - wp_cursor_shape_v1: the pointer entering it, it asks for the
#   crosshair, and the cursor on screen (grim -c) is one: dark lines run
#   left and right of the hotspot, where the default arrow leaves the
#   window's red;
# - xdg-shell 6: a window's first configure offers what fairway does
#   (maximize 2 and fullscreen 3, no window menu or minimize), and a
#   window all covered by a fullscreen one is suspended, then resumed
#   once that one goes (fw-test-suspend).
. "$(dirname "$0")/lib.sh"
: "${FW_TEST_GLOBALS:?}"
need_prog grim

if [ "${FW_SCHEDULER:-on}" = off ]; then
	fw_start --no-xwayland --scheduler off
else
	fw_start --no-xwayland
fi
mkfifo "$FW_TMP/globals.in"
"$FW_TEST_GLOBALS" <>"$FW_TMP/globals.in" >"$FW_TMP/globals.out" \
	2>"$FW_TMP/globals.err" &
pid=$!
FW_HELPERS="$FW_HELPERS $pid"
wait_until 20 "the window listed" has_line "$FW_TMP/globals.out" '^listed'
grep -q '^toplevel fw-test-globals org.fairway.TestGlobals$' "$FW_TMP/globals.out" ||
	fail "ext_foreign_toplevel_list_v1 did not list the window: $(cat "$FW_TMP/globals.out")"
log "ext_foreign_toplevel_list_v1 lists the window"
# Half of 255 over black, the rounding either way.
wait_color 20 800000 30000
log "single-pixel buffer at half alpha: $BBOX"
set -- $BBOX
"$FW_TEST_POINTER" move $(($1 + 50)) $(($2 + 50)) 2>"$FW_TMP/pointer.err" ||
	fail "fw-test-pointer failed: $(cat "$FW_TMP/pointer.err")"
wait_until 20 "the cursor shape asked for" has_line "$FW_TMP/globals.out" '^shape set'
x=$(($1 + 60)) y=$(($2 + 60))
"$FW_TEST_POINTER" move $x $y 2>>"$FW_TMP/pointer.err"
alive "$pid" || fail "the window died after set_shape: $(cat "$FW_TMP/globals.err")"
# crossed SIDE_X: dark pixels of the 7 in the hotspot's row from SIDE_X.
crossed() {
	"$PPM_PROBE" "$FW_TMP/cursor.ppm" count-in "$1" $y 7 1 000000 48
}
grim -c -t ppm "$FW_TMP/cursor.ppm" 2>>"$FW_TMP/grim.err" || fail "grim -c failed"
left=$(crossed $((x - 10))) right=$(crossed $((x + 4)))
[ "$left" -ge 5 ] && [ "$right" -ge 5 ] ||
	fail "the cursor is no crosshair: $left and $right dark pixels beside its hotspot ($FW_TMP/cursor.ppm)"
log "the cursor is the crosshair the window asked for"
echo >"$FW_TMP/globals.in"
timeout 30 "$FW_TEST_SUSPEND" >"$FW_TMP/suspend.out" 2>"$FW_TMP/suspend.err" ||
	fail "fw-test-suspend failed: $(cat "$FW_TMP/suspend.out" "$FW_TMP/suspend.err")"
[ "$(cat "$FW_TMP/suspend.out")" = "capabilities 2 3
suspended 1
suspended 0" ] || fail "xdg-shell 6: $(cat "$FW_TMP/suspend.out")"
log "xdg-shell 6: capabilities, suspended under a fullscreen window, resumed"
pass
