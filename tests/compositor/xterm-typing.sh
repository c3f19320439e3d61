#!/bin/sh
# xterm under XWayland maps, gets keyboard focus, and a line typed through
# the virtual keyboard (wtype) reaches it.
. "$(dirname "$0")/lib.sh"
need_prog xterm
need_prog wtype
need_prog xdotool

fw_start
typed="$FW_TMP/typed.txt"
start_bg xterm -T fw-xterm -e sh -c 'read line; echo "$line" >"$1.tmp"; mv "$1.tmp" "$1"' \
	sh "$typed" >"$FW_TMP/xterm.out" 2>"$FW_TMP/xterm.err"

# Readiness: X's input focus is on the xterm, which an XWayland window
# gets when the compositor activates it on map.
focused() {
	FW_SEEN="X focus on '$(timeout 10 xdotool getwindowfocus getwindowname 2>&1)'"
	case "$FW_SEEN" in
	*"'fw-xterm'") return 0 ;;
	esac
	return 1
}
wait_until 30 "keyboard focus on the xterm" focused
log "xterm mapped and focused"

# wtype uploads its own keymap, and Xwayland drops the key event that comes
# with a keymap change (wtype issues 38 and 46; sway 1.7 loses the 'h' of
# 'hello' the same way), so a lone Shift goes first to absorb that.
wtype -k Shift_L 'hello fairway' -k Return 2>"$FW_TMP/wtype.err" ||
	fail "wtype failed: $(cat "$FW_TMP/wtype.err")"
# Xwayland compiles the new keymap with xkbcomp first: slow on a loaded box.
wait_until 60 "the typed line in $typed" test -s "$typed"
got=$(cat "$typed")
[ "$got" = "hello fairway" ] || fail "xterm read '$got', want 'hello fairway'"
log "xterm read '$got'"
pass
