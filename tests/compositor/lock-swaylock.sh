#!/bin/sh
# Debian's swaylock locks through ext-session-lock-v1, and the lock holds:
# the screen is red, a line typed behind it (with and without an Alt+Tab
# first) reaches neither the terminal nor another window, and a SIGKILL of
# swaylock leaves the session locked on fairway's solid colour until a new
# locker unlocks. Then the terminal gets what is typed again.
. "$(dirname "$0")/lib-lock.sh"
need_prog swaylock
need_prog foot
need_prog wtype
need_prog grim

FOOT=6040c0 W=c06030 RED=ff0000
fw_start --no-xwayland --screenshots-while-locked

start_bg "$FW_TEST_CLIENT" --color $W --size 300x200 --title W \
	>"$FW_TMP/w.out" 2>"$FW_TMP/w.err"
wait_until 20 "window W mapped" has_line "$FW_TMP/w.out" '^mapped'
typed="$FW_TMP/typed.txt"
start_bg foot -c /dev/null -o colors.background=$FOOT -o pad=0x0 \
	-o initial-window-size-pixels=500x300 \
	sh -c 'read line; echo "$line" >"$1.tmp"; mv "$1.tmp" "$1"; sleep 1000' \
	sh "$typed" >"$FW_TMP/foot.out" 2>"$FW_TMP/foot.err"
wait_color_settled 30 $FOOT 20000
wait_until 20 "foot to take the keyboard from W" has_line "$FW_TMP/w.out" '^keyboard-leave'
w_mark=$(lines "$FW_TMP/w.out")

start_bg swaylock -d -c ${RED#\#} >"$FW_TMP/swaylock.out" 2>"$FW_TMP/swaylock.err"
swaylock_pid=$BG_PID
wait_until 20 "only red on screen" shows_only $RED $FOOT $W
log "swaylock: $FW_SEEN"

wtype 'typed behind the lock' -k Return
wtype -M alt -k Tab -m alt
wtype 'typed after alt tab' -k Return
"$FW_TEST_POINTER" move 150 150 click 2>"$FW_TMP/pointer.err" ||
	fail "fw-test-pointer: $(cat "$FW_TMP/pointer.err")"
# swaylock draws its indicator now: only the windows must not show.
shows_none $FOOT $W || fail "a window shows through swaylock: $FW_SEEN"

kill -9 "$swaylock_pid"
wait_until 20 "the solid colour once swaylock died" shows_only $LOCK_COLOR $RED $FOOT $W
log "after SIGKILL: $FW_SEEN"
wtype -M alt -k Tab -m alt
wtype 'typed after the kill' -k Return
shows_only $LOCK_COLOR $RED $FOOT $W || fail "the dead lock shows something: $FW_SEEN"
[ -e "$typed" ] && fail "the terminal behind the lock read '$(cat "$typed")'"
alive "$FW_PID" || fail "fairway died with swaylock"

start_locker unlocker
wait_until 20 "a new locker locked" has_line "$FW_TMP/unlocker.out" '^locked'
tell unlocker unlock
wait_until 20 "the new locker unlocked" has_line "$FW_TMP/unlocker.out" '^unlocked'
wait_color 20 $FOOT 20000

wtype 'after' -k Return
wait_until 20 "the line typed after unlocking in $typed" test -s "$typed"
got=$(cat "$typed")
[ "$got" = after ] || fail "the terminal read '$got', want 'after': keys went through the lock"
n=$(count_since "$FW_TMP/w.out" "$w_mark" '^key \|^keyboard-enter\|^button')
[ "$n" -eq 0 ] || fail "window W got input behind the lock"
log "foot read only '$got'; W got nothing"
# No check of the protocol swaylock used: since 1.8 it has only ext-session-lock-v1.
pass
