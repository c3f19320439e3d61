#!/bin/sh
# wofi (GTK 3 on the layer shell) shows its dmenu list, in the colour of its
# style sheet, takes the keyboard, and a line typed into it (wtype) picks
# the entry it names.
. "$(dirname "$0")/lib.sh"
need_prog grim
need_prog wofi
need_prog wtype

fw_start --no-xwayland
export NO_AT_BRIDGE=1

color=2a4a6a text=c0ff40
mkdir -p "$XDG_CONFIG_HOME/wofi"
cat >"$XDG_CONFIG_HOME/wofi/style.css" <<EOF
window { background-color: #$color; }
#text, #entry:selected #text { color: #$text; }
EOF
printf 'alpha\nbravo\ncharlie\n' >"$FW_TMP/menu"
wofi --dmenu <"$FW_TMP/menu" >"$FW_TMP/wofi.out" 2>"$FW_TMP/wofi.err" &
wofi_pid=$!
FW_HELPERS="$FW_HELPERS $wofi_pid"
# Half the output wide, centred, as wofi sizes itself by default.
wait_color_settled 30 $color 20000
set -- $BBOX
log "wofi shows at $1,$2 $3x$4"
[ "$1" -eq 320 ] && [ "$3" -eq 640 ] ||
	fail "wofi is at $1,$2 $3x$4, want 640 wide at x 320 (see $FW_SHOT)"

# Three entries, one above the other.
set -- $(bbox_in_shot $text 40)
[ "$1" != none ] && [ "$4" -ge 40 ] ||
	fail "wofi's entries span '$*', want three lines of $text (see $FW_SHOT)"
log "wofi lists its entries: $text spans $4 rows"

wtype bravo 2>"$FW_TMP/wtype.err" ||
	fail "wtype failed: $(cat "$FW_TMP/wtype.err")"
one_entry() {
	screenshot || return 1
	set -- $(bbox_in_shot $text 40)
	FW_SEEN="$text at $*"
	[ "$1" != none ] && [ "$4" -lt 25 ]
}
wait_until 20 "wofi to filter its list to bravo" one_entry
wtype -k Return 2>"$FW_TMP/wtype.err" ||
	fail "wtype failed: $(cat "$FW_TMP/wtype.err")"
wofi_done() {
	! alive "$wofi_pid"
}
wait_until 20 "wofi to take the entry and exit" wofi_done
got=$(cat "$FW_TMP/wofi.out")
[ "$got" = bravo ] || fail "wofi printed '$got', want 'bravo'"
log "wofi picked '$got'"
pass
