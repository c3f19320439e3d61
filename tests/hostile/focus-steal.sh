#!/bin/sh
# A client in the background cannot take the keyboard through
# xdg-activation with a token it minted itself (no seat, no input serial):
# what the user types next still goes to the window the user was typing
# into, and none of it to the thief.
. "$FW_TESTS_DIR/lib.sh"
need_prog wtype

THIEF=3060c0 USER=c06030
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

start_fed thief "$FW_TEST_CLIENT" --commands --color $THIEF --size 300x200 \
	--title thief
wait_until 20 "the thief's window" has_line "$FW_TMP/thief.out" '^mapped'
start_bg "$FW_TEST_CLIENT" --color $USER --size 300x200 --title typing \
	>"$FW_TMP/user.out" 2>"$FW_TMP/user.err"
wait_until 20 "the user's window focused" has_line "$FW_TMP/user.out" '^keyboard-enter'

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
pass
