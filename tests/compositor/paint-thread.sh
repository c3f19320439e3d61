#!/bin/sh
# Outputs painted on the paint worker (--paint-thread on, the default with
# pixman): the pixels reach the screen as the main thread would paint them;
# a partial update shows, and one committed while a frame is being painted
# is not lost; the session lock shows nothing of a window, even one the
# worker was painting when the session locked, in either path; a client
# that grows its pool while the worker reads it, or truncates it, costs
# fairway nothing. FAIRWAY_TEST_PAINT_DELAY_MS gives every paint to the
# worker and holds it there, so that there is always a frame being painted
# when it matters.
. "$(dirname "$0")/lib-lock.sh"
need_prog grim
need_prog cmp
: "${FW_PAINT_CLIENT:?set FW_PAINT_CLIENT}"

W=3366cc RED=ff0000 GREEN=00ff00 L1=30c060

# --- the same pixels, painted here or there ---------------------------------
shot_of() {
	shot_name=$1
	shift
	fw_start --no-xwayland -V "$@"
	start_fed win "$FW_PAINT_CLIENT" --color $W --size 300x200
	wait_until 20 "the window shown" has_line "$FW_TMP/win.out" '^mapped'
	wait_color_settled 20 $W 60000
	cp "$FW_SHOT" "$FW_TMP/$shot_name.ppm"
	stop_pid "$BG_PID"
	rm -f "$FW_TMP/win.cmd"
	fw_stop
}
# Every paint the worker's (a small one is painted where it is built).
export FAIRWAY_TEST_PAINT_DELAY_MS=1
shot_of thread --paint-thread on
unset FAIRWAY_TEST_PAINT_DELAY_MS
grep -q 'Painting outputs on a thread of their own' "$FW_TMP/fairway-1.err" ||
	fail "no paint worker with --paint-thread on"
shot_of main --paint-thread off
grep -q 'Painting outputs on a thread' "$FW_TMP/fairway-2.err" &&
	fail "a paint worker with --paint-thread off"
cmp "$FW_TMP/thread.ppm" "$FW_TMP/main.ppm" ||
	fail "the worker painted other pixels than the main thread (see $FW_TMP)"

# --- damage ---------------------------------------------------------------
export FAIRWAY_TEST_PAINT_DELAY_MS=150
fw_start --no-xwayland -V
unset FAIRWAY_TEST_PAINT_DELAY_MS
grep -q 'Each paint held' "$FW_TMP/fairway-3.err" ||
	fail "FAIRWAY_TEST_PAINT_DELAY_MS had no effect"
start_fed win "$FW_PAINT_CLIENT" --color $W --size 300x200
wait_until 20 "the window shown" has_line "$FW_TMP/win.out" '^mapped'
wait_color_settled 20 $W 60000
# A rectangle, damaged alone: it shows, and nothing else moves.
tell win "rect 20 20 40 30 $RED"
wait_until 20 "the first rectangle shown" has_line "$FW_TMP/win.out" '^shown 1'
wait_color_settled 20 $RED 1200
[ "$(pixels $RED)" -eq 1200 ] || fail "$(pixels $RED) red pixels, want 1200"
[ "$(pixels $W)" -eq $((60000 - 1200)) ] ||
	fail "$(pixels $W) window pixels around the rectangle, want 58800"
# Two more, the second while the first is being painted (each paint takes
# 150 ms here): both show, with the first rectangle still there.
tell win "rect 100 50 20 20 $GREEN"
sleep 0.05
tell win "rect 200 120 10 10 $RED"
wait_until 20 "the last rectangle shown" has_line "$FW_TMP/win.out" '^shown 3'
wait_color_settled 20 $GREEN 400
[ "$(pixels $RED)" -eq 1300 ] ||
	fail "$(pixels $RED) red pixels, want 1300: damage from during a paint lost (see $FW_SHOT)"
[ "$(pixels $GREEN)" -eq 400 ] || fail "$(pixels $GREEN) green pixels, want 400"
stop_pid "$BG_PID"
rm -f "$FW_TMP/win.cmd"
fw_stop
[ "$FW_STATUS" -eq 0 ] || fail "fairway exited $FW_STATUS"

# --- the lock, in either path -----------------------------------------------
# An animating window is on screen, a frame of it always being painted.
# After the lock is taken (the window loses the keyboard), no frame that
# shows the window may reach the screen: no presented time from then on.
# The screenshot of the locked session needs --screenshots-while-locked:
# without it screencopy refuses every capture while locked.
lock_run() {
	run=$1
	shift
	fw_start --no-xwayland --screenshots-while-locked "$@"
	start_fed $run "$FW_PAINT_CLIENT" --animate --feedback --color $W \
		--color2 $RED --size 300x200
	win=$BG_PID
	wait_until 20 "the $run window focused" \
		has_line "$FW_TMP/$run.out" '^keyboard-enter'
	wait_until 20 "the $run window presented" \
		has_line "$FW_TMP/$run.out" '^presented'
	start_locker $run-lock --color $L1
	wait_until 20 "the $run session locked" has_line "$FW_TMP/$run-lock.out" '^locked'
	wait_until 20 "the $run window to lose the keyboard" \
		has_line "$FW_TMP/$run.out" '^keyboard-leave'
	# A frame of the locked session, by then every frame before it is
	# reported to the window.
	screenshot
	[ "$(pixels $W)" -eq 0 ] && [ "$(pixels $RED)" -eq 0 ] ||
		fail "$run: the window shows while locked (see $FW_SHOT)"
	python3 - "$FW_TMP/$run.out" <<'PY' || fail "$run: a frame showed the window after the lock"
import sys
lines = [l.split() for l in open(sys.argv[1])]
left = next(int(l[1]) for l in lines if l[0] == "keyboard-leave")
shown = [int(l[1]) for l in lines if l[0] == "presented"]
late = [t for t in shown if t >= left]
print("presented after the lock:", [(t - left) / 1e6 for t in late])
sys.exit(1 if late else 0)
PY
	stop_pid "$win"
	fw_stop
}
export FAIRWAY_TEST_PAINT_DELAY_MS=300
lock_run thread-lock --paint-thread on
unset FAIRWAY_TEST_PAINT_DELAY_MS
lock_run main-lock --paint-thread off

# --- client memory under the worker: a pool grown, a pool truncated -------
export FAIRWAY_TEST_PAINT_DELAY_MS=30
fw_start --no-xwayland
unset FAIRWAY_TEST_PAINT_DELAY_MS
start_fed grow "$FW_PAINT_CLIENT" --animate --grow-pool --color $GREEN \
	--color2 $GREEN --size 100x100
wait_until 20 "the growing window shown" has_line "$FW_TMP/grow.out" '^mapped'
wait_color 20 $GREEN 10000
sleep 2
alive "$BG_PID" || fail "the client growing its pool died"
fw_exited && fail "fairway died while a pool grew under the worker"
grow=$BG_PID
# A client that truncates its pool under a buffer the worker reads: it is
# disconnected with a protocol error, and fairway carries on.
start_bg "$FW_TEST_CLIENT" --size 400x300 --color ff00ff --truncate-after-map \
	>"$FW_TMP/trunc.out" 2>"$FW_TMP/trunc.err"
wait_until 30 "the truncating client to be disconnected" \
	has_line "$FW_TMP/trunc.out" '^disconnected'
grep -q 'truncated' "$FW_TMP/trunc.out" ||
	fail "the client was disconnected before it truncated its pool"
grep -q 'error 71' "$FW_TMP/trunc.err" ||
	fail "the truncating client got no protocol error ($(cat "$FW_TMP/trunc.err"))"
fw_exited && fail "fairway died reading a truncated pool on the worker"
wait_color 20 $GREEN 10000
stop_pid "$grow"
fw_stop
[ "$FW_STATUS" -eq 0 ] || fail "fairway exited $FW_STATUS"
pass
