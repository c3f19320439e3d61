#!/bin/sh
# A client that gets input (virtual pointer) gets the interactive attributes
# on all its threads, including one it starts later; after it disconnects
# (its process lives on) every thread has its original attributes again,
# and the journal is gone.
. "$(dirname "$0")/lib-hints.sh"
need_privilege

fw_start --no-xwayland -d
hint_client_start client 3
orig=$(attrs "$HC_PID" | tr '\n' ';')
log "originals: $orig"
[ "$(echo "$orig" | tr ';' '\n' | grep -c policy)" -ge 4 ] ||
	fail "expected 4 threads: $orig"

hint_client_send connect
wait_until 20 "the client's window" has_line "$HC_OUT" '^mapped'
"$FW_TEST_POINTER" move 640 360 move 650 370 ||
	fail "fw-test-pointer failed"
wait_until 20 "interactive attributes on every thread" \
	all_threads "$HC_PID" "^$INTERACTIVE"
journal_present || fail "no journal while threads are changed"
log "interactive: $FW_SEEN"

hint_client_send disconnect
wait_until 20 "the client's hang-up" has_line "$HC_OUT" '^disconnected'
wait_until 20 "the original attributes back" same_attrs "$HC_PID" "$orig"
no_journal() {
	! journal_present
}
wait_until 10 "the journal removed" no_journal
pass
