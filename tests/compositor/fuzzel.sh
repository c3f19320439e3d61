#!/bin/sh
# fuzzel shows its launcher list, in the colours of its configuration;
# typing into it (wtype) filters the list; a window mapped meanwhile does
# not take the keyboard from it (fuzzel quits when it loses the keyboard);
# Escape closes it and the keyboard returns to the front window.
#
# fuzzel 1.8.2 used to crash at once here: fairway advertised a keyboard
# with no keymap behind it, and fuzzel feeds the modifiers event that comes
# with keyboard focus to xkb_state_update_mask with no state.
. "$(dirname "$0")/lib.sh"
need_prog grim
need_prog fuzzel
need_prog wtype

fw_start --no-xwayland

# Four known entries, and nothing else to list.
export XDG_DATA_DIRS="$FW_TMP/share" XDG_DATA_HOME="$FW_TMP/data-home"
mkdir -p "$XDG_DATA_DIRS/applications" "$XDG_DATA_HOME" "$HOME/.cache"
for name in Alpha Bravo Charlie Delta; do
	printf '[Desktop Entry]\nType=Application\nName=%s Tango\nExec=true\n' \
		$name >"$XDG_DATA_DIRS/applications/$name-tango.desktop"
done
bg=203040 text=e0b070 selection=3060c0 selected=ffff40 selected_match=40ffff
mkdir -p "$XDG_CONFIG_HOME/fuzzel"
# The prompt and the typed text take the text colour too (fuzzel 1.10 and
# later colour them apart, with prompt= and input=): the checks below find
# the prompt line by it.
cat >"$XDG_CONFIG_HOME/fuzzel/fuzzel.ini" <<EOF
[main]
font=DejaVu Sans Mono:size=14
icons-enabled=no
match-mode=exact
fields=name
lines=6
width=24
[colors]
background=${bg}ff
text=${text}ff
prompt=${text}ff
input=${text}ff
match=ff40ffff
selection=${selection}ff
selection-text=${selected}ff
selection-match=${selected_match}ff
border=ffffffff
[border]
width=1
radius=0
EOF

start_bg "$FW_TEST_CLIENT" --size 300x200 --color 33cc66 \
	>"$FW_TMP/first.out" 2>"$FW_TMP/first.err"
wait_until 30 "the first window to map" has_line "$FW_TMP/first.out" '^mapped'

start_bg fuzzel >"$FW_TMP/fuzzel.out" 2>"$FW_TMP/fuzzel.err"
fuzzel_pid=$BG_PID
fuzzel_alive() {
	alive "$fuzzel_pid" || fail "fuzzel exited: $(tail -n 3 "$FW_TMP/fuzzel.err")"
}
# Its panel, and the selected first entry in it.
wait_color 30 $bg 20000
wait_color 30 $selection 2000
fuzzel_alive
panel=$BBOX
# Three unselected entries under the prompt, in the text colour.
set -- $(bbox_in_shot $text)
[ "$1" != none ] && [ "$4" -ge 50 ] ||
	fail "fuzzel's unselected entries span '$*', want 3 lines of $text (see $FW_SHOT)"
listed_height=$4
log "fuzzel lists its entries: $text spans $listed_height rows"
wait_until 20 "the first window to lose the keyboard to fuzzel" \
	has_line "$FW_TMP/first.out" '^keyboard-leave'

# A window that maps now stays without the keyboard; fuzzel stays up.
start_bg "$FW_TEST_CLIENT" --size 300x200 --color 66cc33 \
	>"$FW_TMP/second.out" 2>"$FW_TMP/second.err"
wait_until 30 "the second window to map" has_line "$FW_TMP/second.out" '^mapped'

wtype charlie 2>"$FW_TMP/wtype.err" || fail "wtype failed: $(cat "$FW_TMP/wtype.err")"
# Only "Charlie Tango" is left, selected: the text colour is the prompt line.
filtered() {
	shows_color $selected_match 20 || return 1
	set -- $(bbox_in_shot $text)
	[ "$1" != none ] && [ "$4" -lt 25 ]
}
wait_until 20 "fuzzel to filter its list to Charlie Tango" filtered
fuzzel_alive
log "typing 'charlie' left one entry: $text now spans $(bbox_in_shot $text)"
has_line "$FW_TMP/second.out" '^keyboard-enter' &&
	fail "the window mapped under fuzzel took the keyboard"
has_line "$FW_TMP/second.out" '^key ' && fail "keys typed at fuzzel reached a window"

wtype -k Escape 2>"$FW_TMP/wtype.err" || fail "wtype failed: $(cat "$FW_TMP/wtype.err")"
fuzzel_gone() {
	! alive "$fuzzel_pid"
}
wait_until 20 "fuzzel to close on Escape" fuzzel_gone
wait_until 20 "the keyboard back on the front window" \
	has_line "$FW_TMP/second.out" '^keyboard-enter'
pass
