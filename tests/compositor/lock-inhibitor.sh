#!/bin/sh
# The input inhibitor (wlr-input-inhibitor), as older lockers use it: while
# one is active only its client gets input. Keys (with and without Alt+Tab),
# the bindings, a click and a window mapped meanwhile reach no one else.
# When its client goes the inhibitor ends, as that protocol has it. An
# inhibitor that comes while the session is locked takes nothing from the
# session lock.
. "$(dirname "$0")/lib-lock.sh"
need_prog wtype
need_prog grim

A=3060c0 B=c06030 C=c0c030 L=30c060 S=8040a0
export TERMINAL="touch $FW_TMP/terminal-started"
fw_start --no-xwayland --screenshots-while-locked

start_fed a "$FW_TEST_CLIENT" --stdin --color $A --size 300x200 --title A
wait_until 20 "window A mapped" has_line "$FW_TMP/a.out" '^mapped'
start_bg "$FW_TEST_CLIENT" --color $B --size 300x200 --title B \
	>"$FW_TMP/b.out" 2>"$FW_TMP/b.err"
wait_until 20 "window B focused" has_line "$FW_TMP/b.out" '^keyboard-enter'
wait_color 20 $B 50000
set -- $BBOX
b_x=$(($1 + $3 / 2)) b_y=$(($2 + $4 / 2))

# --- an inhibitor, with a small overlay layer surface: the windows show
# and are under the pointer, and get nothing ---
start_locker inhibitor --input-inhibitor --size 200x150 --color $L
inhibitor_pid=$BG_PID
wait_until 20 "the inhibitor's surfaces shown" has_line "$FW_TMP/inhibitor.out" '^locked'
wait_until 20 "the inhibitor focused" has_line "$FW_TMP/inhibitor.out" '^keyboard-enter'
wait_color 20 $L 30000
a_mark=$(lines "$FW_TMP/a.out") b_mark=$(lines "$FW_TMP/b.out")

wtype hello
wtype -M alt -k Tab -m alt
wtype world
wtype -M logo -k Return -m logo
wtype -M logo -k q -m logo
"$FW_TEST_POINTER" move $b_x $b_y click 2>"$FW_TMP/pointer.err" ||
	fail "fw-test-pointer: $(cat "$FW_TMP/pointer.err")"
# A asks for the focus itself (xdg-activation), then a task bar asks for it.
tell a activate
wait_until 20 "A's xdg-activation request handled" has_line "$FW_TMP/a.out" '^activation-requested'
"$FW_TEST_TOPLEVEL" activate A >"$FW_TMP/toplevel.out" 2>"$FW_TMP/toplevel.err" ||
	fail "fw-test-toplevel: $(cat "$FW_TMP/toplevel.err")"
wtype -M logo -M shift -k e -m shift -m logo
start_bg "$FW_TEST_CLIENT" --color $C --size 300x200 --title C \
	>"$FW_TMP/c.out" 2>"$FW_TMP/c.err"
wait_until 20 "window C mapped under the overlay" has_line "$FW_TMP/c.out" '^mapped'
wtype z
# hello, Tab, world, Return, q, e, z
wait_until 20 "the inhibiting client to get the keys" \
	has_since "$FW_TMP/inhibitor.out" 0 '^key .* pressed' 15
for w in a b; do
	eval mark=\$${w}_mark
	n=$(count_since "$FW_TMP/$w.out" "$mark" '^key \|^keyboard-enter\|^button\|^pointer-enter\|^close\|activated')
	[ "$n" -eq 0 ] || fail "window $w got input or focus while inhibited: $(tail -n +$((mark + 1)) "$FW_TMP/$w.out")"
done
n=$(count_since "$FW_TMP/c.out" 0 '^key \|^keyboard-enter\|activated')
[ "$n" -eq 0 ] || fail "window C, mapped while inhibited, took focus"
[ -e "$FW_TMP/terminal-started" ] && fail "Super+Return ran while inhibited"
alive "$FW_PID" || fail "Super+Shift+E ended fairway while inhibited"
log "keys, bindings, a click, activation requests and a new window: all held while inhibited"

# The client that holds the inhibitor goes: input is everyone's again,
# and B, which had the keyboard, has it back.
kill -9 "$inhibitor_pid"
wait_until 20 "B focused again" has_since "$FW_TMP/b.out" "$b_mark" '^keyboard-enter' 1
wtype z
wait_until 20 "a key to reach B" has_since "$FW_TMP/b.out" "$b_mark" '^key ' 2
sleep 0.5
n=$(count_since "$FW_TMP/b.out" "$b_mark" '^key ')
[ "$n" -eq 2 ] || fail "B got $n key events, want the 2 of the key typed after"
log "inhibitor gone: B has the keyboard back"

# --- an inhibitor under a session lock ---
start_locker session --color $S
wait_until 20 "the session locked" has_line "$FW_TMP/session.out" '^locked'
wait_until 20 "the lock surface focused" has_line "$FW_TMP/session.out" '^keyboard-enter'
start_locker late --input-inhibitor --color $L
wait_until 20 "the late inhibitor's surface configured" \
	has_line "$FW_TMP/late.out" '^configured'
wtype lock
wait_until 20 "the session locker to get the keys" \
	has_since "$FW_TMP/session.out" 0 '^key .* pressed' 4
n=$(count_since "$FW_TMP/late.out" 0 '^key \|^keyboard-enter')
[ "$n" -eq 0 ] || fail "an inhibitor took input from the session lock"
shows_only $S $L $A $B $C || fail "the inhibitor's overlay shows over the lock: $FW_SEEN"
tell session unlock
wait_until 20 "the session unlocked" has_line "$FW_TMP/session.out" '^unlocked'
# Unlocked, the inhibitor that is still there holds input.
wait_until 20 "the inhibitor focused once unlocked" has_line "$FW_TMP/late.out" '^keyboard-enter'
tell late unlock
wait_until 20 "the inhibitor released" has_line "$FW_TMP/late.out" '^unlocked'
wtype y
wait_until 20 "a key to reach B again" has_since "$FW_TMP/b.out" "$b_mark" '^key ' 4
log "the session lock outranks an inhibitor"
pass
