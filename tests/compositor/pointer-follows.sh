#!/bin/sh
# The pointer's focus follows what is under it when the pointer stands
# still: a window that maps under it gets pointer-enter, and when that
# window goes, the one beneath gets it back, with no device motion.
. "$(dirname "$0")/lib.sh"

fw_start --no-xwayland
"$FW_TEST_POINTER" move 640 360 || fail "fw-test-pointer failed"

count_enters() {
	FW_SEEN=$(grep -c '^pointer-enter' "$1")
	[ "$FW_SEEN" -ge "$2" ]
}

# Nearly as big as the output: wherever it is placed, it covers the
# pointer.
start_bg "$FW_TEST_CLIENT" --size 1200x660 --color 3366cc \
	>"$FW_TMP/below.out" 2>"$FW_TMP/below.err"
wait_until 30 "the first window to map" has_line "$FW_TMP/below.out" '^mapped'
wait_until 20 "pointer-enter on the window that mapped under the pointer" \
	count_enters "$FW_TMP/below.out" 1

start_bg "$FW_TEST_CLIENT" --size 1200x660 --color cc6633 \
	>"$FW_TMP/above.out" 2>"$FW_TMP/above.err"
above=$BG_PID
wait_until 30 "the second window to map" has_line "$FW_TMP/above.out" '^mapped'
wait_until 20 "pointer-enter on the window above" \
	count_enters "$FW_TMP/above.out" 1
wait_until 20 "pointer-leave on the window below" \
	has_line "$FW_TMP/below.out" '^pointer-leave'

stop_pid "$above"
wait_until 20 "pointer-enter again on the window below, once the one above went" \
	count_enters "$FW_TMP/below.out" 2
pass
