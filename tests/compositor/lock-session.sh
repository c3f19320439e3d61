#!/bin/sh
# ext-session-lock-v1 with a locker of our own, on two outputs, attacked the
# ways a user would: keys typed behind the lock (with and without an
# Alt+Tab), the other bindings, a click where a window was, a window mapped
# while locked, an output resized, and the locker killed with SIGKILL. Each
# output shows only the lock surface, or fairway's solid colour once the
# locker is dead, and a second locker can then lock and unlock. Extra
# arguments go to fairway (meson runs this once more with --render scene).
. "$(dirname "$0")/lib-lock.sh"
need_prog wtype
need_prog grim
need_prog wlr-randr

A=3060c0 B=c06030 C=c0c030 L1=30c060 L2=8040a0
export TERMINAL="touch $FW_TMP/terminal-started"
fw_start --no-xwayland --screenshots-while-locked --outputs 2 --output-size 640x480 \
	--stats "$FW_TMP/stats" "$@"

start_fed a "$FW_TEST_CLIENT" --stdin --color $A --size 300x200 --title A
wait_until 20 "window A mapped" has_line "$FW_TMP/a.out" '^mapped'
start_bg "$FW_TEST_CLIENT" --color $B --size 300x200 --title B \
	>"$FW_TMP/b.out" 2>"$FW_TMP/b.err"
b_pid=$BG_PID
wait_until 20 "window B focused" has_line "$FW_TMP/b.out" '^keyboard-enter'
wait_color 20 $B 50000
set -- $BBOX
b_x=$(($1 + $3 / 2)) b_y=$(($2 + $4 / 2))

# --- locked ---
start_locker l1 --color $L1
l1_pid=$BG_PID
wait_until 20 "the first locker locked" has_line "$FW_TMP/l1.out" '^locked'
wait_until 20 "only the locker on both outputs" shows_only $L1 $A $B
log "locked: $FW_SEEN"
wait_until 20 "the lock surface focused" has_line "$FW_TMP/l1.out" '^keyboard-enter'
has_line "$FW_TMP/b.out" '^keyboard-leave' || fail "B kept the keyboard"

a_mark=$(lines "$FW_TMP/a.out") b_mark=$(lines "$FW_TMP/b.out")
l1_keys=$(count_since "$FW_TMP/l1.out" 0 '^key .* pressed')
# The gate boosts the client that gets the user's input: the locker now.
# A report a second after one that agrees is before the typing.
reports() {
	grep -c "\"pid\":$1," "$FW_TMP/stats" 2>/dev/null
}
settled() {
	n=$(reports "$1")
	was=$(boosts "$1")
	i=0
	while [ "$(reports "$1")" -le "$n" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -n "$was" ] && [ "$(boosts "$1")" = "$was" ]
}
boosted() {
	[ "$(boosts "$1")" -gt "$2" ]
}
wait_until 20 "the locker's boosts to settle (--stats)" settled $l1_pid
l1_boosts=$(boosts $l1_pid) b_boosts=$(boosts $b_pid)
wtype hello
wait_until 20 "the locker to get hello" \
	has_since "$FW_TMP/l1.out" 0 '^key .* pressed' $((l1_keys + 5))
wait_until 20 "the locker's input boost (--stats)" boosted $l1_pid $l1_boosts
log "typing to the locker: its boosts $l1_boosts -> $(boosts $l1_pid)"

wtype -M alt -k Tab -m alt
wtype world
wtype -M logo -k Return -m logo
wtype -M logo -k q -m logo
"$FW_TEST_POINTER" --extent 1280x480 move $b_x $b_y click \
	2>"$FW_TMP/pointer.err" || fail "fw-test-pointer: $(cat "$FW_TMP/pointer.err")"
# A asks for the focus itself (xdg-activation), then a task bar asks for it.
tell a activate
wait_until 20 "A's xdg-activation request handled" has_line "$FW_TMP/a.out" '^activation-requested'
"$FW_TEST_TOPLEVEL" activate A >"$FW_TMP/toplevel.out" 2>"$FW_TMP/toplevel.err" ||
	fail "fw-test-toplevel: $(cat "$FW_TMP/toplevel.err")"
wtype -M logo -M shift -k e -m shift -m logo
wtype z
# hello, Tab, world, Return, q, e, z: 15 presses, all the locker's.
wait_until 20 "the locker to get the keys" \
	has_since "$FW_TMP/l1.out" 0 '^key .* pressed' $((l1_keys + 15))
for w in a b; do
	eval mark=\$${w}_mark
	n=$(count_since "$FW_TMP/$w.out" "$mark" '^key \|^keyboard-enter\|^button\|^pointer-enter\|^close\|activated')
	[ "$n" -eq 0 ] || fail "window $w got input or focus behind the lock: $(tail -n +$((mark + 1)) "$FW_TMP/$w.out")"
done
[ -e "$FW_TMP/terminal-started" ] && fail "Super+Return started a terminal behind the lock"
alive "$FW_PID" || fail "Super+Shift+E ended fairway behind the lock"
log "keys, Alt+Tab, Super+Return/Q/Shift+E, a click and activation requests: all refused or the locker's"

wait_until 20 "a --stats report after the attacks" sh -c "[ \$(grep -c '\"pid\":$b_pid,' '$FW_TMP/stats') -gt $(reports $b_pid) ]"
[ "$(boosts $b_pid)" = "$b_boosts" ] ||
	fail "window B got boosts while locked: $b_boosts, then $(boosts $b_pid)"
log "window B's boosts stay at $b_boosts"

# A window that maps while locked neither shows nor takes the keyboard.
start_bg "$FW_TEST_CLIENT" --color $C --size 300x200 --title C \
	>"$FW_TMP/c.out" 2>"$FW_TMP/c.err"
wait_until 20 "window C configured" has_line "$FW_TMP/c.out" '^configured'
sleep 1
shows_only $L1 $A $B $C || fail "window C shows behind the lock: $FW_SEEN"
n=$(count_since "$FW_TMP/c.out" 0 '^keyboard-enter\|activated')
[ "$n" -eq 0 ] || fail "window C took focus behind the lock"
# Its first frame callback would say it is on screen; it is not.
has_line "$FW_TMP/c.out" '^mapped' && fail "window C was presented behind the lock"

# --- the locker dies ---
kill -9 "$l1_pid"
wait_until 20 "the solid colour once the locker died" shows_only $LOCK_COLOR $L1 $A $B $C
log "after SIGKILL: $FW_SEEN"
wtype -M alt -k Tab -m alt
wtype typed-while-dead
"$FW_TEST_POINTER" --extent 1280x480 move $b_x $b_y click \
	2>"$FW_TMP/pointer.err" || fail "fw-test-pointer: $(cat "$FW_TMP/pointer.err")"
shows_only $LOCK_COLOR $L1 $A $B $C || fail "the dead lock shows something: $FW_SEEN"
alive "$FW_PID" || fail "fairway died with the locker"

# --- a second locker takes over, and unlocks ---
start_locker l2 --color $L2
wait_until 20 "the second locker locked" has_line "$FW_TMP/l2.out" '^locked'
wait_until 20 "only the second locker" shows_only $L2 $LOCK_COLOR $A $B $C
wait_until 20 "the second lock surface focused" has_line "$FW_TMP/l2.out" '^keyboard-enter'
wtype x
wait_until 20 "the second locker to get a key" has_line "$FW_TMP/l2.out" '^key '
tell l2 unlock
wait_until 20 "the second locker unlocked" has_line "$FW_TMP/l2.out" '^unlocked'

# B had the keyboard before the lock, and gets it back; nothing typed
# behind the lock reaches anyone, the key typed now reaches B.
wait_until 20 "B focused again" has_since "$FW_TMP/b.out" "$b_mark" '^keyboard-enter' 1
wtype z
wait_until 20 "the key typed after unlocking to reach B" \
	has_since "$FW_TMP/b.out" "$b_mark" '^key ' 2
sleep 0.5
n=$(count_since "$FW_TMP/b.out" "$b_mark" '^key ')
[ "$n" -eq 2 ] || fail "B got $n key events, want the 2 of the key typed after unlocking"
n=$(count_since "$FW_TMP/a.out" "$a_mark" '^key \|^keyboard-enter')
[ "$n" -eq 0 ] || fail "A got keys or focus"
n=$(count_since "$FW_TMP/c.out" 0 '^key \|^keyboard-enter')
[ "$n" -eq 0 ] || fail "C, mapped while locked, got keys or focus"
wait_until 20 "window C presented once unlocked" has_line "$FW_TMP/c.out" '^mapped'
wait_color 20 $C 5000
log "unlocked: B has the keyboard back, C shows (below B)"

# --- an output that changes size while locked: the lock surface there is
# configured to the new size, which counts as a window event for the
# locker in the gate, and the lock still covers the output. (Last: the
# output change moves every window, which the checks above do not want.)
start_locker l3 --color $L1
l3_pid=$BG_PID
wait_until 20 "the third locker locked" has_line "$FW_TMP/l3.out" '^locked'
wait_until 20 "the third lock surface focused" has_line "$FW_TMP/l3.out" '^keyboard-enter'
wait_until 20 "the third locker's boosts to settle (--stats)" settled $l3_pid
l3_boosts=$(boosts $l3_pid)
wlr-randr --output HEADLESS-2 --custom-mode 800x600 2>"$FW_TMP/randr.err" ||
	fail "wlr-randr: $(cat "$FW_TMP/randr.err")"
wait_until 20 "the lock surface configured to 800x600" has_line "$FW_TMP/l3.out" '^configured 800 600'
wait_until 20 "the configure's boost (--stats)" boosted $l3_pid $l3_boosts
wait_until 20 "the resized output locked all over" shows_none $LOCK_COLOR $A $B $C
[ "$(pixels $L1)" -gt 614400 ] || fail "the lock surface did not grow: $(pixels $L1) pixels"
log "resized while locked: $(pixels $L1) pixels of the locker, boosts $l3_boosts -> $(boosts $l3_pid)"
tell l3 unlock
wait_until 20 "the third locker unlocked" has_line "$FW_TMP/l3.out" '^unlocked'
pass
