#!/bin/sh
# hints-journal-trust.sh cap|user: a fairway that holds a privilege its
# user lacks (cap_sys_nice from a file capability) keeps its journals where
# every process of that user may write ($XDG_RUNTIME_DIR). A journal found
# there must never make fairway do for that user what the user could not:
#
# 1. a journal the user wrote, 0600 like fairway's own, asking nice -20 for
#    a process of the user's that carries fairway's mark (the fork flag):
#    the process keeps its nice, at start and with --restore-hints;
# 2. one asking SCHED_OTHER for the user's thread in SCHED_IDLE, which
#    only privilege may leave: it stays there;
# 3. and what fairway itself changed is still given back after a crash
#    (the fork flag aside, which only privilege may clear).
#
# As a plain user (user) the same must hold, with nothing to gain.
. "$(dirname "$0")/lib-hints.sh"
need_prog chrt

deploy=${1:-cap}
fw_deploy "$deploy"
[ "$deploy" != root ] || skip "root's journals are root's own (hints-planted)"

# 3. A crash, in this deployment.
fw_start --no-xwayland
fw_deploy_check
hint_client_start client 2
orig=$(attrs "$HC_PID" | sed 's/ reset=[01]//' | tr '\n' ';')
hint_client_send connect
wait_until 20 "the client's window" has_line "$HC_OUT" '^mapped'
"$FW_TEST_POINTER" move 640 360 || fail "fw-test-pointer failed"
if [ "$deploy" = cap ]; then
	boosted="^$INTERACTIVE"
else
	boosted='^policy=0 nice=3 slice=500000 reset=1'
fi
wait_until 20 "interactive attributes on the client" all_threads "$HC_PID" "$boosted"
crashed=$(fairway_pid)
journal_present "$crashed" || fail "no journal in $FW_STATE_DIR"
kill -KILL "$crashed"
wait "$FW_PID"
FW_PID=""
$FAIRWAY --restore-hints >"$FW_TMP/restore-own.out" 2>&1 ||
	fail "--restore-hints failed: $(cat "$FW_TMP/restore-own.out")"
without_reset() {
	FW_SEEN=$(attrs "$1" | sed 's/ reset=[01]//' | tr '\n' ';')
	[ "$FW_SEEN" = "$2" ]
}
without_reset "$HC_PID" "$orig" ||
	fail "--restore-hints did not give the client back $orig: $FW_SEEN"
log "after a crash, the client is given back $orig"
hint_client_send disconnect
exec 3>&-

# The user's own processes, marked as fairway marks what it changed.
start_bg $FW_AS chrt --reset-on-fork --other 0 sleep 600
lowered=$BG_PID
start_bg $FW_AS chrt --reset-on-fork --idle 0 sleep 600
idle=$BG_PID
wait_until 10 "the user's processes" all_threads "$lowered" 'reset=1'
wait_until 10 "the user's processes" all_threads "$idle" '^policy=5 .*reset=1'
lowered_orig=$(attrs "$lowered" | tr '\n' ';')
idle_orig=$(attrs "$idle" | tr '\n' ';')
start_of() {
	sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20
}
# Writer pid 999999 is above pid_max: dead, so the journal is stale.
plant() {
	$FW_AS sh -c 'umask 077; printf "%s\n" "$1" >"$2"' sh "fairway-hints 1 999999 0
$lowered $lowered $(start_of "$lowered") 0 0 -20 0 -1
$idle $idle $(start_of "$idle") 0 0 0 0 -1" "$FW_STATE_DIR/fairway-hints-$1.journal" ||
		fail "cannot plant a journal as $FW_USER"
}
unchanged() {
	same_attrs "$lowered" "$lowered_orig" ||
		fail "$1 lowered the user's nice: $FW_SEEN (was $lowered_orig)"
	same_attrs "$idle" "$idle_orig" ||
		fail "$1 took the user's thread out of SCHED_IDLE: $FW_SEEN (was $idle_orig)"
}

# 1, 2 with --restore-hints.
plant 1
$FAIRWAY --restore-hints >"$FW_TMP/restore.out" 2>&1
log "--restore-hints: $(cat "$FW_TMP/restore.out")"
unchanged "--restore-hints"
# 1, 2 at start.
plant 2
fw_start --no-xwayland
unchanged "a start"
log "a journal the user wrote gave it nothing"
pass
