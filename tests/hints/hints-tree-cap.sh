#!/bin/sh
# A client with 200 children: fairway hints at most HINT_TREE_PROCS_MAX
# processes of the application (scheduler/hints/hint_tree.h), the client's own
# among them, and keeps serving meanwhile (a probe's round trips all come
# back). A child that changes uid and one that exited at once are never
# hinted.
. "$(dirname "$0")/lib-hints.sh"
need_privilege
: "${FW_PROBE:?set FW_PROBE to fairway-probe}"

fw_start --no-xwayland
hint_client_start big 1 setsid
hint_client_send "spawn 200"
wait_until 20 "200 children" has_line "$HC_OUT" '^spawned [0-9]'
hint_client_send "spawn-setuid"
hint_client_send "spawn-exit"
wait_until 20 "the other children" sh -c \
	'[ "$(grep -c "^spawned" "$0")" -ge 3 ]' "$HC_OUT"
other_uid=$(grep '^spawned' "$HC_OUT" | sed -n '2s/^spawned //p')
exited=$(grep '^spawned' "$HC_OUT" | sed -n '3s/^spawned //p')
start_bg "$FW_PROBE" --duration 8 --interval-ms 10 >"$FW_TMP/probe.json" \
	2>"$FW_TMP/probe.err"
probe=$BG_PID
hint_client_interactive big

cap=$(sed -n 's/^#define HINT_TREE_PROCS_MAX \([0-9]*\)$/\1/p' \
	"$FW_TESTS_DIR/../../scheduler/hints/hint_tree.h")
[ -n "$cap" ] || fail "HINT_TREE_PROCS_MAX not found"
# Processes whose main thread (tid = pid) has the interactive attributes.
count_hinted() {
	pids="$HC_PID $(children_of "$HC_PID" | tr '\n' ' ')"
	hinted=$("$FW_SCHED_ATTR" $pids 2>/dev/null |
		grep -E "^($(echo $pids | tr ' ' '|')) $INTERACTIVE" | wc -l)
	FW_SEEN="$hinted processes hinted"
	[ "$hinted" -eq "$cap" ]
}
wait_until 20 "$cap processes hinted" count_hinted
log "$FW_SEEN of $(($(children_of "$HC_PID" | wc -w) + 1))"
for i in 1 2 3; do
	"$FW_TEST_POINTER" move 600 300 move 660 380 || fail "fw-test-pointer failed"
	sleep 1
	count_hinted || fail "the cap moved: $FW_SEEN"
done
never_boosted "$other_uid" "the child of another uid" 3
case "$(attrs "$exited")" in
*"nice=-"* | *"slice=500000 "*) fail "the exited child was hinted" ;;
esac
wait "$probe" || fail "the probe failed: $(cat "$FW_TMP/probe.err")"
log "probe: $(tail -n 1 "$FW_TMP/probe.json")"
pass
