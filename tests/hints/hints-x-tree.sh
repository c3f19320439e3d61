#!/bin/sh
# An X client's application is a process tree too. An xterm started in a
# session of its own with a helper child (as a launcher's wrapper leaves
# one) gets pointer input: the helper, in the xterm's session, gets the
# interactive attributes with it; the program xterm runs on its terminal,
# in a session of its own, never does.
. "$(dirname "$0")/lib-hints.sh"
need_privilege
need_prog xterm
need_prog xdotool

fw_start -d
# setsid does not fork here (the background shell leads no process group),
# so each exec keeps the pid: the xterm's is BG_PID.
start_bg sh -c 'exec setsid sh -c "sleep 600 & exec xterm -T fw-xtree -e sleep 601"' \
	>"$FW_TMP/xterm.out" 2>&1
xterm=$BG_PID
wait_until 30 "the xterm mapped and focused" x_focused fw-xtree
[ "$(session_of "$xterm")" = "$xterm" ] || fail "the xterm leads no session"
helper=$(pgrep -P "$xterm" -x sleep | while read -r p; do
	[ "$(session_of "$p")" = "$xterm" ] && echo "$p"
done)
job=$(pgrep -f '^sleep 601$')
[ -n "$helper" ] && [ -n "$job" ] || fail "helper '$helper', job '$job'"
[ "$(session_of "$job")" != "$xterm" ] || fail "the job shares the xterm's session"
log "xterm $xterm, helper $helper, its terminal's job $job"

"$FW_TEST_POINTER" move 100 100 move 110 110 || fail "fw-test-pointer failed"
wait_until 20 "interactive attributes on the xterm" \
	all_threads "$xterm" "^$INTERACTIVE"
wait_until 20 "interactive attributes on its helper" \
	all_threads "$helper" "^$INTERACTIVE"
log "helper: $FW_SEEN"
never_boosted "$job" "the terminal's job" 4
pass
