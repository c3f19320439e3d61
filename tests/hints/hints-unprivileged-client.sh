#!/bin/sh
# fairway without CAP_SYS_NICE (and RLIMIT_NICE 0) still does what needs no
# privilege: the interactive custom slice and the fork flag, nice left as
# it was. It says so in its log, and restores the slice on disconnect
# (the fork flag may stay: clearing it needs the capability).
#
# The whole test drops the capability, clients included: the kernel also
# refuses a change to a process whose capabilities are not a subset of the
# caller's (cap_safe_nice), as between a desktop user's processes they are.
if [ -z "${FW_HINTS_DROPPED:-}" ] && command -v setpriv >/dev/null 2>&1; then
	FW_HINTS_DROPPED=1 exec setpriv --inh-caps=-sys_nice \
		--bounding-set=-sys_nice "$0" "$@"
fi
. "$(dirname "$0")/lib-hints.sh"
need_prog setpriv

fw_start --no-xwayland -d
has_line "$FW_TMP/fairway-1.err" 'CAP_SYS_NICE no' ||
	fail "fairway did not report running without CAP_SYS_NICE"
hint_client_start client 2
orig=$(attrs "$HC_PID" | tr '\n' ';')
hint_client_send connect
wait_until 20 "the client's window" has_line "$HC_OUT" '^mapped'
"$FW_TEST_POINTER" move 640 360 || fail "fw-test-pointer failed"
wait_until 20 "the unprivileged interactive attributes" \
	all_threads "$HC_PID" '^policy=0 nice=3 slice=500000 reset=1'
hint_client_send disconnect
wait_until 20 "the client's hang-up" has_line "$HC_OUT" '^disconnected'
without_reset() {
	FW_SEEN=$(attrs "$1" | sed 's/ reset=[01]//' | tr '\n' ';')
	[ "$FW_SEEN" = "$2" ]
}
wait_until 20 "the original slice and nice back" \
	without_reset "$HC_PID" "$(echo "$orig" | sed 's/ reset=[01]//g')"
pass
