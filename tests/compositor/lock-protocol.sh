#!/bin/sh
# ext-session-lock-v1's rules: a locker that breaks one gets the protocol
# error the specification names and is disconnected; fairway goes on, and a
# session such a locker had locked stays locked. A second lock while one is
# held is refused with finished. A good locker then unlocks.
. "$(dirname "$0")/lib-lock.sh"
need_prog wtype

fw_start --no-xwayland
start_bg "$FW_TEST_CLIENT" --color 3060c0 --size 300x200 \
	>"$FW_TMP/w.out" 2>"$FW_TMP/w.err"
wait_until 20 "the window focused" has_line "$FW_TMP/w.out" '^keyboard-enter'

# violate RULE INTERFACE CODE [MESSAGE]: the locker breaking RULE gets that
# error; a request that destroys its object leaves no interface, so the
# message names the error then.
n=0
violate() {
	n=$((n + 1))
	start_locker "bad-$n" --violate "$1"
	pid=$BG_PID
	wait_until 20 "the locker breaking $1 to end" eval "! alive $pid"
	wait "$pid"
	status=$?
	got=$(grep '^error ' "$FW_TMP/bad-$n.out")
	[ "$status" -eq 4 ] && [ "$got" = "error $2 $3" ] ||
		fail "breaking $1: exit $status, '$got'; want 4, 'error $2 $3'"
	if [ $# -gt 3 ]; then
		grep -q "$4" "$FW_TMP/bad-$n.err" ||
			fail "breaking $1: no '$4' in $(cat "$FW_TMP/bad-$n.err")"
	fi
	alive "$FW_PID" || fail "fairway died of a locker breaking $1"
	log "$1: $got"
}

# First, while nothing is locked yet: locked is not sent at once then.
violate unlock-unlocked destroyed 1 'the locked event was never sent'
violate commit-before-ack ext_session_lock_surface_v1 0
violate null-buffer ext_session_lock_surface_v1 1
violate wrong-size ext_session_lock_surface_v1 2
violate bad-serial ext_session_lock_surface_v1 3
violate duplicate-output ext_session_lock_v1 3
violate role ext_session_lock_v1 3
violate already-constructed ext_session_lock_v1 4
violate destroy-locked destroyed 0 'may not be destroyed while locked'

# Those lockers died locked: the session is still locked.
w_mark=$(lines "$FW_TMP/w.out")
wtype leak
start_locker holder
wait_until 20 "a good locker locked" has_line "$FW_TMP/holder.out" '^locked'
start_locker second
wait_until 20 "the second lock to end" eval "! alive $BG_PID"
has_line "$FW_TMP/second.out" '^finished' ||
	fail "a second lock was not refused: $(cat "$FW_TMP/second.out")"
has_line "$FW_TMP/second.out" '^locked' && fail "two locks were granted at once"
log "a second lock: finished"

tell holder unlock
wait_until 20 "the good locker unlocked" has_line "$FW_TMP/holder.out" '^unlocked'
wait_until 20 "the window focused again" has_since "$FW_TMP/w.out" "$w_mark" '^keyboard-enter' 1
wtype z
wait_until 20 "a key to reach the window" has_since "$FW_TMP/w.out" "$w_mark" '^key ' 2
sleep 0.5
n=$(count_since "$FW_TMP/w.out" "$w_mark" '^key ')
[ "$n" -eq 2 ] || fail "the window got $n key events, want the 2 typed after unlocking"
pass
