#!/bin/sh
# fairway's own task group: started alone in a session of its own (as a
# display manager or fairway-session starts it), --raise-priority puts its
# session's autogroup at nice -10 as well as its main thread, since the
# kernel shares the CPU between groups before it looks at a thread's nice.
# In a session it shares (here the test's, as from a login shell), the
# group is left as it is and the log says why; --raise-priority off
# leaves it too.
. "$(dirname "$0")/lib-hints.sh"
need_privilege
need_autogroups
need_prog setsid

# fairway as the leader of a session of its own: the shell is no process
# group leader under timeout, so setsid execs without a fork.
real=$FAIRWAY
FAIRWAY=$FW_TMP/fairway-setsid
printf '#!/bin/sh\nexec setsid "%s" "$@"\n' "$real" >"$FAIRWAY"
chmod +x "$FAIRWAY"

fw_start --no-xwayland -V
fw=$(fairway_pid)
[ "$(session_of "$fw")" = "$fw" ] || fail "fairway $fw leads no session"
own_group() {
	FW_SEEN="autogroup nice $(autogroup_nice "$fw")"
	[ "$(autogroup_nice "$fw")" = -10 ]
}
wait_until 10 "fairway's own autogroup at nice -10" own_group
has_line "$FW_TMP/fairway-$FW_STARTS.err" 'Own group: autogroup [0-9]* at nice -10 (was 0)' ||
	fail "no log line for the group: $(grep 'Own group' "$FW_TMP/fairway-$FW_STARTS.err")"
log "own session: $FW_SEEN"
fw_stop

fw_start --no-xwayland -V --raise-priority off
fw=$(fairway_pid)
[ "$(autogroup_nice "$fw")" = 0 ] ||
	fail "--raise-priority off changed the group: $(autogroup_nice "$fw")"
fw_stop

# In the test's own session: shared with the shell, never raised.
FAIRWAY=$real
before=$(autogroup_nice $$)
fw_start --no-xwayland -V
fw=$(fairway_pid)
wait_until 10 "the log line on the shared group" \
	has_line "$FW_TMP/fairway-$FW_STARTS.err" 'Own group: autogroup [0-9]* left as it is'
[ "$(autogroup_nice "$fw")" = "$before" ] ||
	fail "the shared session's autogroup changed: $(autogroup_nice "$fw")"
log "shared session: left at $before"
fw_stop
pass
