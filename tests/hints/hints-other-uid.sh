#!/bin/sh
# hints-other-uid.sh cap|user: a client of another uid than fairway's is
# left alone. Root's client in the user's session (`sudo -E app`) made
# interactive keeps its attributes: fairway with the file capability could
# lower its nice, and its replay after a crash, with the user's privileges
# only, could never raise it back ("Operation not permitted"). So after a
# crash `--restore-hints` finds nothing of it to restore, and its nice is
# still what it was. (As a plain user the kernel refuses such a change
# anyway: the same must hold, with nothing to gain.)
. "$(dirname "$0")/lib-hints.sh"

deploy=${1:-cap}
fw_deploy "$deploy"
[ "$deploy" != root ] || skip "root's fairway replays as root: it may hint any uid"

fw_start --no-xwayland -d
fw_deploy_check
FW_ERR="$FW_TMP/fairway-1.err"

# Root's client: run as root, not as fairway's user.
as=$FW_AS
FW_AS=""
hint_client_start rootclient 2
FW_AS=$as
orig=$(attrs "$HC_PID" | tr '\n' ';')
hint_client_send connect
wait_until 20 "root's client's window" has_line "$HC_OUT" '^mapped'
"$FW_TEST_POINTER" move 640 360 move 650 370 || fail "fw-test-pointer failed"
# Classed interactive at two updates: its hints, if any, went out by then.
rated() {
	FW_SEEN="$(grep -c "ratings: pid $HC_PID .*: interactive" "$FW_ERR") updates"
	[ "$(grep -c "ratings: pid $HC_PID .*: interactive" "$FW_ERR")" -ge 2 ]
}
wait_until 30 "root's client classed interactive" rated
same_attrs "$HC_PID" "$orig" ||
	fail "root's client was hinted by a fairway of uid $(id -u "$FW_USER"): $FW_SEEN (was $orig)"
log "root's client kept $orig while interactive"
grep "hints: pid $HC_PID " "$FW_ERR" | head -n 2 | sed 's/^/# fairway: /'

fw_crash
$FAIRWAY --restore-hints >"$FW_TMP/restore.out" 2>&1
log "--restore-hints: $(cat "$FW_TMP/restore.out" | tr '\n' ' ')"
same_attrs "$HC_PID" "$orig" ||
	fail "after a crash and --restore-hints, root's client has $FW_SEEN (was $orig)"
log "after a crash and --restore-hints, root's client has $orig"
exec 3>&-
pass
