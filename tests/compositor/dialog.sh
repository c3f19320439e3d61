#!/bin/sh
# xdg-dialog-v1: a modal dialog stays above its parent and keeps the focus.
# A click on its parent (fw-test-dialog's red window, outside the green
# dialog) raises the parent with the dialog above it, all of the dialog
# showing, and activates neither the parent nor anything but the dialog.
. "$(dirname "$0")/lib.sh"
: "${FW_TEST_DIALOG:?}" "${FW_TEST_POINTER:?}"
need_prog grim

if [ "${FW_SCHEDULER:-on}" = off ]; then
	fw_start --no-xwayland --scheduler off
else
	fw_start --no-xwayland
fi
mkfifo "$FW_TMP/dialog.in"
"$FW_TEST_DIALOG" <>"$FW_TMP/dialog.in" >"$FW_TMP/dialog.out" \
	2>"$FW_TMP/dialog.err" &
FW_HELPERS="$FW_HELPERS $!"
wait_until 20 "both windows mapped" has_line "$FW_TMP/dialog.out" '^mapped'
wait_color 20 00ff00 20000
dialog_box=$BBOX
wait_color 20 ff0000 1000
set -- $BBOX
px=$1 py=$2 pw=$3 ph=$4
set -- $dialog_box
dx=$1 dy=$2 dw=$3 dh=$4
# A point of the parent's that the dialog does not cover.
point=""
for p in "$((px + 3)) $((py + 3))" "$((px + pw - 4)) $((py + 3))" \
	"$((px + 3)) $((py + ph - 4))" "$((px + pw - 4)) $((py + ph - 4))"; do
	set -- $p
	if [ "$1" -lt "$dx" ] || [ "$1" -ge $((dx + dw)) ] ||
		[ "$2" -lt "$dy" ] || [ "$2" -ge $((dy + dh)) ]; then
		point=$p
		break
	fi
done
[ -n "$point" ] || fail "the dialog covers every corner of its parent"
grep -q '^activated dialog' "$FW_TMP/dialog.out" ||
	fail "the dialog was not activated when it mapped: $(cat "$FW_TMP/dialog.out")"
lines=$(wc -l <"$FW_TMP/dialog.out")
"$FW_TEST_POINTER" move $point click 2>"$FW_TMP/pointer.err" ||
	fail "fw-test-pointer failed: $(cat "$FW_TMP/pointer.err")"
echo >"$FW_TMP/dialog.in"
wait_until 20 "the client synced" has_line "$FW_TMP/dialog.out" '^synced'
after=$(tail -n +$((lines + 1)) "$FW_TMP/dialog.out" | grep -v '^synced')
[ -z "$after" ] || fail "a click on the parent of a modal dialog: $after"
wait_color 20 00ff00 20000
log "a click on the parent at $point left the modal dialog above it, with the focus"
pass
