#!/bin/sh
# Keys typed through a virtual keyboard with a keymap of its own (wtype
# uploads one each run) reach an X client as typed: a lone Return, and a
# whole line with its first letter. X clients look keys up in the X
# server's keymap of the moment they read them, so the seat must not
# switch keymaps under keys still on their way (the default keymap comes
# back only with another keyboard), and a virtual keyboard's keymap must
# reach Xwayland before its first key; virtual keyboards that follow each
# other type into X clients through one keymap that only grows and changes
# as seldom as it can (compositor/input/x_keymap.c).
. "$(dirname "$0")/lib.sh"
need_prog xterm
need_prog wtype
need_prog xdotool
need_prog od

fw_start

# typed NAME CMD...: what an xterm read, raw, while CMD typed into it.
typed() {
	name=$1
	shift
	cap="$FW_TMP/$name.cap"
	start_bg xterm -T "fw-$name" -e sh -c \
		'stty raw -echo; timeout --foreground 10 head -c "$2" >"$1.tmp"; mv "$1.tmp" "$1"' \
		sh "$cap" "$EXPECT_BYTES" >"$FW_TMP/$name.out" 2>&1
	focused() {
		FW_SEEN="X focus on '$(timeout 10 xdotool getwindowfocus getwindowname 2>&1)'"
		case "$FW_SEEN" in
		*"'fw-$name'") return 0 ;;
		esac
		return 1
	}
	wait_until 30 "keyboard focus on the xterm $name" focused
	"$@" 2>"$FW_TMP/$name.wtype" || fail "$* failed: $(cat "$FW_TMP/$name.wtype")"
	wait_until 20 "what xterm $name read" test -e "$cap"
	# As hex bytes: a Return is 0d, an Escape 1b.
	TYPED=$(od -An -tx1 "$cap" | tr -d ' \n')
}

for round in 1 2 3; do
	EXPECT_BYTES=1
	typed return-$round wtype -k Return
	[ "$TYPED" = 0d ] || fail "round $round: wtype -k Return gave bytes $TYPED, not a Return (0d)"
	EXPECT_BYTES=8
	typed line-$round wtype 'echo two'
	[ "$TYPED" = 6563686f2074776f ] ||
		fail "round $round: wtype 'echo two' gave bytes $TYPED, not 'echo two'"
	log "round $round: Return and 'echo two' arrived whole"
done

# Keys the keymap lacks at first (fairway's starts with ASCII and the
# editing keys): both come in with the first, in one change of keymap.
EXPECT_BYTES=6
typed fkeys wtype -k F1 -k F2
[ "$TYPED" = 1b4f501b4f51 ] ||
	fail "wtype -k F1 -k F2 gave bytes $TYPED, not F1 and F2 (1b4f50 1b4f51)"
log "F1 and F2 arrived whole"

# Back to back, each call a virtual keyboard with a keymap of its own
# that puts its symbols on the same keycodes as the call before: the X
# client reads each key as it was typed, never as the next call's key.
EXPECT_BYTES=16
typed back-to-back sh -c \
	'wtype hello; wtype -k Return; wtype world; wtype -k Return; wtype abc; wtype -k Return'
[ "$TYPED" = 68656c6c6f0d776f726c640d6162630d ] ||
	fail "back to back, xterm read bytes $TYPED, not hello, world and abc each with its Return"
log "back to back: every word arrived whole, each with its Return"
pass
