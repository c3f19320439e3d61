#!/bin/sh
# The key bindings, typed through a virtual keyboard (wtype): Alt+Tab moves
# the focus to the other window, Super+Q closes the focused one,
# Super+Return starts $TERMINAL, Super+Shift+E makes fairway exit.
. "$(dirname "$0")/lib.sh"
need_prog wtype

export TERMINAL="touch $FW_TMP/terminal-started"
fw_start --no-xwayland

start_bg "$FW_TEST_CLIENT" --color 3060c0 --size 300x200 --duration 60 \
	--title first >"$FW_TMP/first.out" 2>"$FW_TMP/first.err"
first=$!
wait_until 20 "first window mapped" has_line "$FW_TMP/first.out" '^mapped'
start_bg "$FW_TEST_CLIENT" --color c06030 --size 300x200 --duration 60 \
	--title second >"$FW_TMP/second.out" 2>"$FW_TMP/second.err"
second=$!
wait_until 20 "second window mapped" has_line "$FW_TMP/second.out" '^mapped'
wait_until 20 "second window focused" has_line "$FW_TMP/second.out" 'keyboard-enter'

before=$(grep -c 'keyboard-enter' "$FW_TMP/first.out")
wtype -M alt -k Tab -m alt
wait_until 20 "Alt+Tab gives the first window the focus" \
	sh -c "[ \$(grep -c 'keyboard-enter' '$FW_TMP/first.out') -gt $before ]"

wtype -M logo -k q -m logo
wait_until 20 "Super+Q closes the focused (first) window" \
	has_line "$FW_TMP/first.out" '^close'
wait "$first" 2>/dev/null
has_line "$FW_TMP/second.out" '^close' && fail "Super+Q closed the second window too"

wtype -M logo -k Return -m logo
wait_until 20 "Super+Return starts \$TERMINAL" test -e "$FW_TMP/terminal-started"

wtype -M logo -M shift -k e -m shift -m logo
wait_until 30 "Super+Shift+E makes fairway exit" fw_exited
wait "$FW_PID"
status=$?
FW_PID=""
[ "$status" -eq 0 ] || fail "fairway exited $status after Super+Shift+E, want 0"
kill "$second" 2>/dev/null
pass
