#!/bin/sh
# Idle notification: swayidle's timeout command runs once no input came for
# the timeout, input (a virtual keyboard or pointer) resumes it and starts
# the timeout over, and a window holding an idle inhibitor suspends it, for
# ext-idle-notify-v1 (swayidle and fw-test-idle); but not while the session
# is locked, when that window does not show.
. "$(dirname "$0")/lib-lock.sh"
need_prog swayidle
need_prog wtype
: "${FW_TEST_IDLE:=fw-test-idle}"

fw_start --no-xwayland
t=$FW_TMP

# --- the timeout fires, and input resumes and restarts it ---
start_bg swayidle -w timeout 1 "touch $t/idle" resume "touch $t/resumed" \
	>"$t/swayidle-1.out" 2>"$t/swayidle-1.err"
swayidle_pid=$BG_PID
wait_until 20 "swayidle's timeout command" test -e "$t/idle"
rm "$t/idle"
wtype x
wait_until 20 "swayidle's resume command after a key" test -e "$t/resumed"
wait_until 20 "the timeout again, after the key" test -e "$t/idle"
rm "$t/idle" "$t/resumed"
"$FW_TEST_POINTER" move 200 200 2>"$t/pointer.err" ||
	fail "fw-test-pointer: $(cat "$t/pointer.err")"
wait_until 20 "swayidle's resume command after pointer motion" test -e "$t/resumed"
wait_until 20 "the timeout again, after the motion" test -e "$t/idle"
stop_pid "$swayidle_pid"
log "timeout, resume on a key and on motion, timeout again"

# --- input that keeps coming keeps it from firing ---
start_bg swayidle -w timeout 4 "touch $t/held" \
	>"$t/swayidle-2.out" 2>"$t/swayidle-2.err"
swayidle_pid=$BG_PID
i=0
while [ $i -lt 12 ]; do
	wtype y
	sleep 0.5
	i=$((i + 1))
done
[ -e "$t/held" ] && fail "idle after 4 s though a key came every 0.5 s"
wait_until 20 "the timeout once the keys stopped" test -e "$t/held"
stop_pid "$swayidle_pid"
log "a key every 0.5 s holds a 4 s timeout off"

# --- an idle inhibitor on a window that shows suspends idle ---
start_bg "$FW_TEST_CLIENT" --idle-inhibit --color 4080c0 --size 300x200 \
	>"$t/inhibit.out" 2>"$t/inhibit.err"
inhibit_pid=$BG_PID
wait_until 20 "the inhibiting window mapped" has_line "$t/inhibit.out" '^mapped'
start_bg swayidle -w timeout 1 "touch $t/inhibited" \
	>"$t/swayidle-3.out" 2>"$t/swayidle-3.err"
start_bg "$FW_TEST_IDLE" 1000 >"$t/ext.out" 2>"$t/ext.err"
wait_until 20 "the ext-idle-notify watcher" has_line "$t/ext.out" '^watching'
sleep 3
[ -e "$t/inhibited" ] && fail "swayidle's 1 s timeout ran with an inhibitor on a window"
has_line "$t/ext.out" '^idle' && fail "ext-idle-notify fired with an inhibitor on a window"
log "3 s with an inhibitor on a window: no 1 s timeout fired"

# A locked session hides the window: its inhibitor counts no more.
start_locker locker --color 30c060
wait_until 20 "the session locked" has_line "$t/locker.out" '^locked'
wait_until 20 "swayidle's timeout while locked" test -e "$t/inhibited"
wait_until 20 "ext-idle-notify idle while locked" has_line "$t/ext.out" '^idle'
tell locker unlock
wait_until 20 "the session unlocked" has_line "$t/locker.out" '^unlocked'
log "locked: the hidden window's inhibitor no longer counts"

# Unlocked, the window shows again and inhibits again; input resumes the
# ext-idle-notify notification.
rm "$t/inhibited"
wtype z
wait_until 20 "ext-idle-notify resumed after a key" has_line "$t/ext.out" '^resumed'
sleep 3
[ -e "$t/inhibited" ] && fail "swayidle's timeout ran with the inhibitor back"
[ "$(grep -c '^idle' "$t/ext.out")" -eq 1 ] ||
	fail "ext-idle-notify fired with the inhibitor back"

# The inhibiting client goes: the timeouts fire again.
stop_pid "$inhibit_pid"
wait_until 20 "swayidle's timeout once the inhibitor went" test -e "$t/inhibited"
wait_until 20 "ext-idle-notify idle once the inhibitor went" \
	sh -c "[ \$(grep -c '^idle' '$t/ext.out') -ge 2 ]"
log "inhibitor gone: the timeouts fire again"
pass
