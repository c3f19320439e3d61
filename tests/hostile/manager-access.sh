#!/bin/sh
# fairway_scheduler_manager_v1 shows every client's pid, comm and app_id
# and sets any client's priority: being of fairway's uid is not enough to
# get it. A client of fairway's own uid that the configuration does not
# name is not shown it, nor may it bind it by name, nor may one in a
# Flatpak sandbox; fairway_scheduler_self_v1 stays open to all of them.
. "$FW_TESTS_DIR/lib.sh"
: "${FW_TEST_SCHEDULER:?}" "${FW_FLATPAK_RUN:?}"
[ "$(id -u)" = 0 ] || skip "needs root for a sandbox's mount namespace"

fw_start --no-xwayland
start_bg "$FW_TEST_CLIENT" >"$FW_TMP/client.out"
wait_until 20 "a client's window" has_line "$FW_TMP/client.out" '^mapped'

"$FW_TEST_SCHEDULER" globals >"$FW_TMP/globals.out" 2>&1 ||
	fail "fw-test-scheduler globals failed: $(cat "$FW_TMP/globals.out")"
grep -q '^self ' "$FW_TMP/globals.out" ||
	fail "a client is not shown fairway_scheduler_self_v1"
grep -q '^manager ' "$FW_TMP/globals.out" &&
	fail "a client fairway's configuration does not name is shown the manager"
"$FW_TEST_SCHEDULER" see >"$FW_TMP/see.out" 2>&1 &&
	fail "a client fairway's configuration does not name sees every client: $(cat "$FW_TMP/see.out")"
"$FW_FLATPAK_RUN" "$FW_TEST_SCHEDULER" globals >"$FW_TMP/sandboxed.out" 2>&1 ||
	fail "fw-test-scheduler in a sandbox failed: $(cat "$FW_TMP/sandboxed.out")"
grep -q '^manager ' "$FW_TMP/sandboxed.out" &&
	fail "a sandboxed client is shown the manager"
log "the manager is for none of them; self is for all"
pass
