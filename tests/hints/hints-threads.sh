#!/bin/sh
# A client with 5000 threads does not stall fairway: while it gets input
# (its class changes, off the input path) and fairway walks its threads
# each second, only the first HINT_THREADS_MAX threads are tracked
# (scheduler/hints/hint_threads.h), the main one among them, and a probe's
# round trips all finish within a second. A walk that read or changed
# every thread held fairway for tens of milliseconds at each walk; the
# probe's tail is printed here, and measured in bench/, not asserted.
. "$(dirname "$0")/lib-hints.sh"
need_privilege
: "${FW_PROBE:?set FW_PROBE to fairway-probe}"

fw_start --no-xwayland -V
hint_client_start big "${FW_THREADS:-5000}"
threads=$(ls "/proc/$HC_PID/task" | wc -l)
[ "$threads" -gt "${FW_THREADS:-5000}" ] || skip "could only start $threads threads"
start_bg "$FW_PROBE" --duration 12 --interval-ms 10 >"$FW_TMP/probe.json" \
	2>"$FW_TMP/probe.err"
probe=$BG_PID
hint_client_send connect
wait_until 20 "the client's window" has_line "$HC_OUT" '^mapped'
"$FW_TEST_POINTER" move 640 360 move 650 370 || fail "fw-test-pointer failed"
main_thread() {
	FW_SEEN=$("$FW_SCHED_ATTR" "$HC_PID" | grep "^$HC_PID " | cut -d' ' -f2-)
	case "$FW_SEEN" in
	"$INTERACTIVE"*) return 0 ;;
	esac
	return 1
}
wait_until 20 "interactive attributes on the main thread" main_thread
hinted=$("$FW_SCHED_ATTR" "$HC_PID" | grep -c "$INTERACTIVE")
log "$hinted of $threads threads hinted"
cap=$(sed -n 's/^#define HINT_THREADS_MAX \([0-9]*\)$/\1/p' \
	"$FW_TESTS_DIR/../../scheduler/hints/hint_threads.h")
[ -n "$cap" ] || fail "HINT_THREADS_MAX not found"
[ "$hinted" -le "$cap" ] || fail "$hinted threads hinted, more than the $cap tracked"
for i in 1 2 3; do
	"$FW_TEST_POINTER" move 600 300 move 660 380 || fail "fw-test-pointer failed"
done
wait "$probe" || fail "the probe failed: $(cat "$FW_TMP/probe.err")"
max=$(sed -n 's/.*"max":\([0-9.]*\).*/\1/p' "$FW_TMP/probe.json")
log "probe: $(cat "$FW_TMP/probe.json")"
[ -n "$max" ] || fail "no round trip measured"
grep -q '"unfinished":0' "$FW_TMP/probe.json" || fail "a round trip never finished"
awk -v max="$max" 'BEGIN { exit !(max < 1000) }' ||
	fail "a round trip took $max ms"
pass
