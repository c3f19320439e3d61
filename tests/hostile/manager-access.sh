#!/bin/sh
# fairway_scheduler_manager_v1 shows every client's pid, comm and app_id
# and sets any client's priority: being of fairway's uid is not enough to
# get it. Only an executable the configuration names (scheduler manager,
# fairway-top's installed path by default) is shown it, by its full path:
# a client of fairway's own uid that it does not name is not, nor is a
# copy of a named one elsewhere, nor a named one in a Flatpak sandbox, and
# a bind by the global's name anyway is a protocol error.
# fairway_scheduler_self_v1 stays open to all of them.
. "$FW_TESTS_DIR/lib.sh"
: "${FW_TEST_SCHEDULER:?}" "${FW_FLATPAK_RUN:?}"
[ "$(id -u)" = 0 ] || skip "needs root for a sandbox's mount namespace"

named=$FW_TMP/named/fw-test-scheduler
copy=$FW_TMP/copy/fw-test-scheduler
mkdir -m 755 "$FW_TMP/named" "$FW_TMP/copy"
cp "$FW_TEST_SCHEDULER" "$named"
cp "$FW_TEST_SCHEDULER" "$copy"
printf 'scheduler manager %s\n' "$named" >"$XDG_CONFIG_HOME/fairway/config"
printf 'scheduler manager */fw-test-scheduler\n' >"$FW_TMP/pattern.conf"
"$FAIRWAY" --check-config "$FW_TMP/pattern.conf" >"$FW_TMP/pattern.out" 2>&1 &&
	fail "scheduler manager took a pattern"
fw_start --no-xwayland
start_bg "$FW_TEST_CLIENT" >"$FW_TMP/client.out"
wait_until 20 "a client's window" has_line "$FW_TMP/client.out" '^mapped'

# globals WHO PROGRAM...: what PROGRAM's "globals" lists, in $FW_TMP/WHO.out.
globals() {
	who=$1
	shift
	"$@" globals >"$FW_TMP/$who.out" 2>&1 ||
		fail "$who: fw-test-scheduler globals failed: $(cat "$FW_TMP/$who.out")"
	grep -q '^self ' "$FW_TMP/$who.out" ||
		fail "$who is not shown fairway_scheduler_self_v1"
}

globals named "$named"
manager=$(sed -n 's/^manager //p' "$FW_TMP/named.out")
[ -n "$manager" ] || fail "the executable the configuration names is not shown the manager"
"$named" see >"$FW_TMP/see.out" 2>&1 || fail "the named executable cannot see: $(cat "$FW_TMP/see.out")"

globals plain "$FW_TEST_SCHEDULER"
grep -q '^manager ' "$FW_TMP/plain.out" &&
	fail "a client fairway's configuration does not name is shown the manager"
"$FW_TEST_SCHEDULER" see >"$FW_TMP/plain-see.out" 2>&1 &&
	fail "a client fairway's configuration does not name sees every client: $(cat "$FW_TMP/plain-see.out")"
globals copy "$copy"
grep -q '^manager ' "$FW_TMP/copy.out" &&
	fail "a copy of the named executable elsewhere is shown the manager"
"$copy" bind-manager "$manager" >"$FW_TMP/blind.out" 2>&1
status=$?
[ "$status" -eq 3 ] || fail "a bind of the manager by its name was not a protocol error (exit $status): $(cat "$FW_TMP/blind.out")"
globals sandboxed "$FW_FLATPAK_RUN" "$named"
grep -q '^manager ' "$FW_TMP/sandboxed.out" &&
	fail "the named executable in a sandbox is shown the manager"
log "the manager is for $named alone, out of any sandbox; self is for all"
pass
