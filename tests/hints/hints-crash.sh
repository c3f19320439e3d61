#!/bin/sh
# fairway killed with SIGKILL leaves its journal; the next start restores
# what it recorded, and so does `fairway --restore-hints`.
. "$(dirname "$0")/lib-hints.sh"
need_privilege

hinted_then_crash() {
	fw_start --no-xwayland
	hint_client_start "$1" 2
	orig=$(attrs "$HC_PID" | tr '\n' ';')
	hint_client_send connect
	wait_until 20 "the $1 window" has_line "$HC_OUT" '^mapped'
	"$FW_TEST_POINTER" move 640 360 || fail "fw-test-pointer failed"
	wait_until 20 "interactive attributes on $1" \
		all_threads "$HC_PID" "^$INTERACTIVE"
	CRASHED=$(fairway_pid)
	journal_present "$CRASHED" || fail "no journal"
	kill -KILL "$CRASHED"
	wait "$FW_PID"
	FW_PID=""
	all_threads "$HC_PID" "^$INTERACTIVE" ||
		fail "attributes changed without fairway: $FW_SEEN"
}

hinted_then_crash first
fw_start --no-xwayland
same_attrs "$HC_PID" "$orig" || fail "restart did not restore: $FW_SEEN"
journal_present "$CRASHED" && fail "the old journal is still there"
log "restart restored $HC_PID"
fw_stop

hinted_then_crash second
"$FAIRWAY" --restore-hints >"$FW_TMP/restore.out" 2>&1 ||
	fail "--restore-hints failed: $(cat "$FW_TMP/restore.out")"
same_attrs "$HC_PID" "$orig" || fail "--restore-hints did not restore: $FW_SEEN"
journal_present "$CRASHED" && fail "the journal is still there"
log "--restore-hints: $(cat "$FW_TMP/restore.out")"
pass
