#!/bin/sh
# Who may use the scheduler protocol. A client of fairway's uid whose
# executable the configuration names (scheduler manager) sees the manager
# and every client (manager-access in tests/hostile: no other one does). A
# client of another uid (nobody), even of that executable, is shown only
# fairway_scheduler_self_v1: the manager is filtered out of its registry,
# a bind to it anyway is a protocol error, and through self it may lower
# its own priority but not raise it. Nobody else is disturbed meanwhile.
. "$(dirname "$0")/lib.sh"
: "${FW_TEST_SCHEDULER:?}" "${FW_TEST_CLIENT:?}" "${FAIRWAY_TOP:?}"
need_prog setpriv
id nobody >/dev/null 2>&1 || skip "no user nobody"

allow_manager "$FW_TEST_SCHEDULER" "$FAIRWAY_TOP"
fw_start --no-xwayland
start_bg "$FW_TEST_CLIENT" >"$FW_TMP/client.out"
CLIENT_PID=$BG_PID
wait_until 20 "the test client's window" has_line "$FW_TMP/client.out" '^mapped'

"$FW_TEST_SCHEDULER" globals >"$FW_TMP/globals.out" || fail "globals failed"
MANAGER=$(sed -n 's/^manager //p' "$FW_TMP/globals.out")
[ -n "$MANAGER" ] || fail "the executable the configuration names is not shown the manager: $(cat "$FW_TMP/globals.out")"
"$FW_TEST_SCHEDULER" see >"$FW_TMP/see.out" || fail "see failed: $(cat "$FW_TMP/see.out")"
grep -q "^client $CLIENT_PID fw-test-client$" "$FW_TMP/see.out" ||
	fail "the manager does not show the test client: $(cat "$FW_TMP/see.out")"

# The socket, for another uid; its path only, no runtime directory.
chmod 711 "$FW_TMP" "$XDG_RUNTIME_DIR"
chmod 666 "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY"
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		env WAYLAND_DISPLAY="$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY" "$@"
}

as_nobody "$FW_TEST_SCHEDULER" globals >"$FW_TMP/nobody-globals.out" ||
	fail "nobody cannot connect: $(cat "$FW_TMP/nobody-globals.out")"
grep -q '^self ' "$FW_TMP/nobody-globals.out" ||
	fail "nobody is not shown fairway_scheduler_self_v1"
grep -q '^manager ' "$FW_TMP/nobody-globals.out" &&
	fail "nobody is shown the manager"

as_nobody "$FW_TEST_SCHEDULER" bind-manager "$MANAGER" >"$FW_TMP/nobody-bind.out"
status=$?
[ "$status" -eq 3 ] && grep -Eq '^error wl_(display|registry) 0$' "$FW_TMP/nobody-bind.out" ||
	fail "nobody's bind of the manager was not an invalid_object error (exit $status): $(cat "$FW_TMP/nobody-bind.out")"

as_nobody "$FAIRWAY_TOP" --batch --count 1 >"$FW_TMP/nobody-top.out" 2>"$FW_TMP/nobody-top.err"
status=$?
[ "$status" -eq 1 ] && grep -q 'offers no fairway_scheduler_manager_v1' "$FW_TMP/nobody-top.err" ||
	fail "fairway-top as nobody did not say it has no manager (exit $status): $(cat "$FW_TMP/nobody-top.err")"

# Lowering its own priority is open to all; raising it again is not.
as_nobody "$FW_TEST_SCHEDULER" lower -3 -5 >"$FW_TMP/nobody-lower.out" ||
	fail "nobody could not lower its own priority: $(cat "$FW_TMP/nobody-lower.out")"
[ "$(tr '\n' ' ' <"$FW_TMP/nobody-lower.out")" = "priority 0 priority -3 priority -5 " ] ||
	fail "lowering answered: $(cat "$FW_TMP/nobody-lower.out")"
as_nobody "$FW_TEST_SCHEDULER" lower -5 0 >"$FW_TMP/nobody-raise.out"
status=$?
[ "$status" -eq 3 ] && grep -q '^error fairway_scheduler_self_v1 1$' "$FW_TMP/nobody-raise.out" ||
	fail "raising its own priority was not a not_lower error (exit $status): $(cat "$FW_TMP/nobody-raise.out")"

alive "$CLIENT_PID" || fail "the test client was disconnected"
"$FW_TEST_SCHEDULER" see >"$FW_TMP/see-after.out" || fail "see failed afterwards"
grep -q "^client $CLIENT_PID fw-test-client$" "$FW_TMP/see-after.out" ||
	fail "the test client is no longer listed"
pass
