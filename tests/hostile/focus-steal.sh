#!/bin/sh
# A client in the background cannot take the keyboard through
# xdg-activation with a token it minted itself (no seat, no serial):
# what the user types next still goes to the window the user was typing
# into, none of it to the thief, and the thief's title bar turns urgent
# (until it is focused). A token that carries the focused client's recent
# input serial is honoured, and so is the one fairway gave a command it
# started (a binding's exec, $XDG_ACTIVATION_TOKEN), once.
. "$FW_TESTS_DIR/lib.sh"
need_prog wtype
need_prog grim

THIEF=3060c0 USER=c06030 LAUNCHED=30c060 URGENT=900000
printf 'bind Super+a exec exec %s --commands --color %s --size 300x200 --title launched <>%s >%s 2>&1\n' \
	"$FW_TEST_CLIENT" "$LAUNCHED" "$FW_TMP/launched.cmd" "$FW_TMP/launched.out" \
	>"$XDG_CONFIG_HOME/fairway/config"
fw_start --no-xwayland

# start_fed NAME PROGRAM [ARGS...]: its events in $FW_TMP/NAME.out, its
# commands from the fifo $FW_TMP/NAME.cmd (held open read-write, so that
# it never sees an end).
start_fed() {
	name=$1
	shift
	mkfifo "$FW_TMP/$name.cmd"
	"$@" <>"$FW_TMP/$name.cmd" >"$FW_TMP/$name.out" 2>"$FW_TMP/$name.err" &
	BG_PID=$!
	FW_HELPERS="$FW_HELPERS $BG_PID"
}
tell() {
	timeout 10 sh -c 'echo "$1" >"$2"' sh "$2" "$FW_TMP/$1.cmd" ||
		fail "cannot tell $1 '$2': it has gone"
}
lines() {
	wc -l <"$1" | tr -d ' '
}
count_since() {
	tail -n +"$(($2 + 1))" "$1" 2>/dev/null | grep -c -e "$3"
}
has_since() {
	[ "$(count_since "$1" "$2" "$3")" -gt 0 ]
}
# focused_since NAME MARK: NAME got the keyboard after line MARK.
focused_since() {
	[ "$(count_since "$FW_TMP/$1.out" "$2" '^keyboard-enter')" -gt 0 ]
}

start_fed thief "$FW_TEST_CLIENT" --commands --color $THIEF --size 300x200 \
	--title thief
wait_until 20 "the thief's window" has_line "$FW_TMP/thief.out" '^mapped'
start_fed user "$FW_TEST_CLIENT" --commands --color $USER --size 300x200 \
	--title typing
wait_until 20 "the user's window focused" has_line "$FW_TMP/user.out" '^keyboard-enter'

# 1. A token of the thief's own.
thief_mark=$(lines "$FW_TMP/thief.out")
user_mark=$(lines "$FW_TMP/user.out")
tell thief activate
wait_until 20 "the thief's activation handled" \
	has_line "$FW_TMP/thief.out" '^activation-requested'
wtype secret
thief_events() {
	count_since "$FW_TMP/thief.out" "$thief_mark" '^keyboard-enter\|^key '
}
landed() {
	FW_SEEN="$(count_since "$FW_TMP/user.out" "$user_mark" '^key .* pressed') keys to the user's window"
	[ "$(count_since "$FW_TMP/user.out" "$user_mark" '^key .* pressed')" -ge 6 ] ||
		[ "$(thief_events)" -gt 0 ]
}
wait_until 20 "the typing to land" landed
[ "$(thief_events)" -eq 0 ] ||
	fail "the thief took the keyboard: $(tail -n +"$((thief_mark + 1))" "$FW_TMP/thief.out" | tr '\n' ';')"
[ "$(count_since "$FW_TMP/user.out" "$user_mark" '^keyboard-leave')" -eq 0 ] ||
	fail "the user's window lost the keyboard"
log "a self-minted token took nothing"
wait_color 20 $URGENT 1000
log "the thief's title bar is urgent: $FW_SEEN"

# hand_focus FROM TO: FROM, which has the keyboard, mints a token of its
# input and TO activates with it; TO gets the keyboard.
hand_focus() {
	tell "$1" token
	wait_until 20 "$1's token" has_line "$FW_TMP/$1.out" '^token '
	token=$(sed -n 's/^token //p' "$FW_TMP/$1.out" | tail -n 1)
	mark=$(lines "$FW_TMP/$2.out")
	tell "$2" "activate-token $token"
	wait_until 20 "$2 focused with $1's token" focused_since "$2" "$mark"
}

# 2. The user's window hands the focus on with a token of its input.
hand_focus user thief
no_urgent() {
	screenshot || return 1
	FW_SEEN="$("$PPM_PROBE" "$FW_SHOT" count $URGENT 2) urgent pixels"
	[ "$("$PPM_PROBE" "$FW_SHOT" count $URGENT 2)" -eq 0 ]
}
wait_until 20 "the urgent title bar gone once focused" no_urgent
log "a token with the focused client's input serial is honoured"

# 3. The token fairway gave the command a binding started: the launched
# window maps with the focus, hands it to the user's window (a token of
# its input), then asks for it back with $XDG_ACTIVATION_TOKEN.
mkfifo "$FW_TMP/launched.cmd"
wtype -M logo -k a -m logo
wait_until 20 "the launched window focused" has_line "$FW_TMP/launched.out" '^keyboard-enter'
hand_focus launched user
launched_mark=$(lines "$FW_TMP/launched.out")
tell launched activate-env
wait_until 20 "the launched window's activation handled" \
	has_since "$FW_TMP/launched.out" "$launched_mark" '^activation-requested'
wait_until 20 "the launched window focused with fairway's token" \
	focused_since launched "$launched_mark"
log "the token fairway gave its command is honoured"
pass
