#!/bin/sh
# A plaid flooder with no visible output (requests on a role-less surface)
# and no input becomes background: SCHED_IDLE on its threads.
# A drawing client next to it does not.
. "$(dirname "$0")/lib-hints.sh"
need_privilege
[ -n "${FW_PLAID:-}" ] || skip "built without -Dclients"

fw_start --no-xwayland -d
start_bg "$FW_PLAID" --mode requests --duration 60 >"$FW_TMP/plaid.out" 2>&1
plaid=$BG_PID
wait_until 30 "background attributes on plaid" \
	all_threads "$plaid" '^policy=5 '
log "plaid: $FW_SEEN"
grep -q "pid $plaid idle -> background" "$FW_TMP"/fairway-1.err ||
	fail "no class change logged for plaid"
pass
