#!/bin/sh
# --outputs and --output-size make that many headless outputs of that size,
# side by side in the layout (not stacked on one another).
. "$(dirname "$0")/lib.sh"
need_prog wayland-info

fw_start --no-xwayland --outputs 2 --output-size 800x600
wayland-info >"$FW_TMP/info.out" 2>"$FW_TMP/info.err" ||
	fail "wayland-info failed"

n=$(grep -c "^interface: 'wl_output'" "$FW_TMP/info.out")
[ "$n" -eq 2 ] || fail "$n wl_output globals, want 2"
modes=$(grep -c 'width: 800 px, height: 600 px' "$FW_TMP/info.out")
[ "$modes" -eq 2 ] || {
	grep -A 10 "^interface: 'wl_output'" "$FW_TMP/info.out"
	fail "$modes outputs with an 800x600 mode, want 2"
}
# xdg-output tells where each output is in the layout.
grep 'logical_x:' "$FW_TMP/info.out" | sort >"$FW_TMP/layout.out"
sizes=$(grep -c 'logical_width: 800, logical_height: 600' "$FW_TMP/info.out")
[ "$sizes" -eq 2 ] || fail "$sizes outputs 800x600 in the layout, want 2"
[ "$(uniq "$FW_TMP/layout.out" | wc -l)" -eq 2 ] || {
	cat "$FW_TMP/layout.out"
	fail "both outputs share one layout position"
}
log "outputs at: $(tr -d '\t' <"$FW_TMP/layout.out" | tr '\n' ';')"
fw_stop

# The default: one 1280x720 output.
fw_start --no-xwayland
wayland-info >"$FW_TMP/info.out" 2>"$FW_TMP/info.err" ||
	fail "wayland-info failed"
n=$(grep -c "^interface: 'wl_output'" "$FW_TMP/info.out")
[ "$n" -eq 1 ] || fail "$n wl_output globals by default, want 1"
grep -q 'width: 1280 px, height: 720 px' "$FW_TMP/info.out" ||
	fail "the default output is not 1280x720"
pass
