#!/bin/sh
# --hints dry-run logs the changes it would make and makes none.
. "$(dirname "$0")/lib-hints.sh"

fw_start --no-xwayland --hints dry-run -V
hint_client_start client 2
orig=$(attrs "$HC_PID" | tr '\n' ';')
hint_client_send connect
wait_until 20 "the client's window" has_line "$HC_OUT" '^mapped'
"$FW_TEST_POINTER" move 640 360 || fail "fw-test-pointer failed"
wait_until 20 "a dry-run line for the client" \
	has_line "$FW_TMP/fairway-1.err" "(dry-run): pid $HC_PID .*interactive"
same_attrs "$HC_PID" "$orig" || fail "dry-run changed attributes: $FW_SEEN"
journal_present && fail "dry-run wrote a journal"
pass
