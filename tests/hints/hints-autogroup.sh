#!/bin/sh
# The group level on autogroups: a client alone in its session (started
# with setsid, as fairway starts applications) gets its autogroup's nice
# from its class and gives it back when it disconnects, while its process
# lives on; after a crash, `fairway --restore-hints` gives it back. A
# client that shares its session with a process not of it (this test's
# shell) keeps its autogroup as it was, and gets its threads' class only.
# fairway-top shows both: the processes hinted and the group set or not.
. "$(dirname "$0")/lib-hints.sh"
need_privilege
need_autogroups

group_is() {
	FW_SEEN="autogroup nice $(autogroup_nice "$1")"
	[ "$(autogroup_nice "$1")" = "$2" ]
}

# top_shows PID PROCS GROUP: fairway-top's --json and table give PID's
# application PROCS ("hinted/tracked") and GROUP ("ag N" or "-").
top_shows() {
	[ -n "${FAIRWAY_TOP:-}" ] || return 0
	timeout 20 "$FAIRWAY_TOP" --batch --json --count 1 --interval 200 \
		>"$FW_TMP/top.json" 2>"$FW_TMP/top.err" || return 1
	FW_SEEN=$(cat "$FW_TMP/top.json")
	python3 - "$FW_TMP/top.json" "$1" "$2" "$3" <<'PY' || return 1
import json, sys
rows = json.loads(open(sys.argv[1]).read())
r = [r for r in rows if r["pid"] == int(sys.argv[2])][0]
hinted, tracked = (int(n) for n in sys.argv[3].split("/"))
assert (r["processes_hinted"], r["processes"]) == (hinted, tracked), r
assert r["threads"] == 3, r
group = sys.argv[4]
if group == "-":
    assert r["group"] is None, r
else:
    assert r["group"] == {"kind": "autogroup", "nice": int(group.split()[1])}, r
PY
	timeout 20 "$FAIRWAY_TOP" --batch --count 1 --interval 200 \
		>"$FW_TMP/top.txt" 2>"$FW_TMP/top.err" || return 1
	FW_SEEN=$(cat "$FW_TMP/top.txt")
	grep -q -E "^ +[0-9]+ +$1 .* $2 +$3 +fw-hint-client" "$FW_TMP/top.txt"
}

[ -n "${FAIRWAY_TOP:-}" ] && allow_manager "$FAIRWAY_TOP"
fw_start --no-xwayland
hint_client_start alone 2 setsid
[ "$(session_of "$HC_PID")" = "$HC_PID" ] || fail "the client is not in a session of its own"
before=$(autogroup_nice "$HC_PID")
orig=$(attrs "$HC_PID" | tr '\n' ';')
hint_client_interactive alone
wait_until 10 "its autogroup at nice $GROUP_BOOST" group_is "$HC_PID" "$GROUP_BOOST"
log "alone in its session: $FW_SEEN"
wait_until 30 "fairway-top showing its process and group" \
	top_shows "$HC_PID" 1/1 "ag $GROUP_BOOST"
hint_client_send disconnect
wait_until 20 "the hang-up" has_line "$HC_OUT" '^disconnected'
wait_until 20 "its autogroup given back" group_is "$HC_PID" "$before"
wait_until 20 "its threads given back" same_attrs "$HC_PID" "$orig"
exec 3>&-

# Sharing its session with this shell: the group is not the client's.
shell_group=$(autogroup_nice $$)
hint_client_start shared 2
[ "$(session_of "$HC_PID")" = "$(session_of $$)" ] || fail "the client has a session of its own"
hint_client_interactive shared
sleep 2
group_is "$HC_PID" "$shell_group" || fail "a shared autogroup changed: $FW_SEEN"
group_is $$ "$shell_group" || fail "this shell's autogroup changed: $FW_SEEN"
wait_until 30 "fairway-top showing its process and no group" \
	top_shows "$HC_PID" 1/1 "-"
exec 3>&-
fw_stop

# A crash leaves the change in the journal; --restore-hints undoes it.
fw_start --no-xwayland
hint_client_start crashed 2 setsid
before=$(autogroup_nice "$HC_PID")
hint_client_interactive crashed
wait_until 10 "its autogroup at nice $GROUP_BOOST" group_is "$HC_PID" "$GROUP_BOOST"
fw_crash
groups="$FW_STATE_DIR/fairway-groups-$CRASHED.journal"
grep -q "^autogroup $HC_PID " "$groups" ||
	fail "no autogroup line in $groups: $(cat "$groups" 2>&1)"
group_is "$HC_PID" "$GROUP_BOOST" || fail "the autogroup changed without fairway: $FW_SEEN"
"$FAIRWAY" --restore-hints >"$FW_TMP/restore.out" 2>&1 ||
	fail "--restore-hints failed: $(cat "$FW_TMP/restore.out")"
group_is "$HC_PID" "$before" ||
	fail "--restore-hints left the autogroup: $FW_SEEN; $(cat "$FW_TMP/restore.out")"
journal_present "$CRASHED" && fail "the journal is still there"
[ -e "$groups" ] && fail "the groups' journal is still there"
log "--restore-hints: $(cat "$FW_TMP/restore.out")"
pass
