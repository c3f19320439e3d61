#!/bin/sh
# fairway's own task group: started alone in a session of its own (as a
# display manager or fairway-session starts it), --raise-priority puts its
# session's autogroup at nice -15 (where the main thread goes to -10),
# since the kernel shares the CPU between groups before it looks at a
# thread's nice; without CAP_SYS_NICE, as low as RLIMIT_NICE allows.
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
	[ "$(autogroup_nice "$fw")" = "$1" ]
}
wait_until 10 "fairway's own autogroup at nice -15" own_group -15
has_line "$FW_TMP/fairway-$FW_STARTS.err" 'Own group: autogroup [0-9]* at nice -15 (was 0)' ||
	fail "no log line for the group: $(grep 'Own group' "$FW_TMP/fairway-$FW_STARTS.err")"
log "own session: $FW_SEEN"
fw_stop

# Without CAP_SYS_NICE, RLIMIT_NICE decides: as it is (0 unless raised),
# nothing lower than nice 0 and a line says why; at 30, nice -10 and no
# lower.
nocap() {
	caps=$(awk '/^CapEff:/ { print $2 }' "/proc/$1/status")
	[ $((0x$caps >> 23 & 1)) = 0 ] || fail "fairway kept CAP_SYS_NICE: CapEff $caps"
}
if command -v setpriv >/dev/null && [ "$(prlimit --nice --noheadings --output SOFT)" = 0 ]; then
	printf '#!/bin/sh\nexec setsid setpriv --inh-caps -sys_nice --bounding-set -sys_nice "%s" "$@"\n' \
		"$real" >"$FAIRWAY"
	fw_start --no-xwayland -V
	fw=$(fairway_pid)
	nocap "$fw"
	wait_until 10 "the log line on the group it may not raise" has_line \
		"$FW_TMP/fairway-$FW_STARTS.err" 'Own group: autogroup [0-9]* stays at nice 0, no CAP_SYS_NICE and RLIMIT_NICE allows 20'
	[ "$(autogroup_nice "$fw")" = 0 ] || fail "the group changed: $(autogroup_nice "$fw")"
	log "own session, no CAP_SYS_NICE, RLIMIT_NICE 0: left at 0"
	fw_stop
fi
# Raising the hard limit needs CAP_SYS_RESOURCE, which a container may lack.
if command -v setpriv >/dev/null && command -v prlimit >/dev/null &&
	prlimit --nice=30 true 2>/dev/null; then
	printf '#!/bin/sh\nexec setsid prlimit --nice=30 setpriv --inh-caps -sys_nice --bounding-set -sys_nice "%s" "$@"\n' \
		"$real" >"$FAIRWAY"
	fw_start --no-xwayland -V
	fw=$(fairway_pid)
	nocap "$fw"
	wait_until 10 "fairway's own autogroup at nice -10" own_group -10
	has_line "$FW_TMP/fairway-$FW_STARTS.err" 'Own group: autogroup [0-9]* at nice -10 (was 0)' ||
		fail "no log line for the group: $(grep 'Own group' "$FW_TMP/fairway-$FW_STARTS.err")"
	log "own session, RLIMIT_NICE 30 and no CAP_SYS_NICE: $FW_SEEN"
	fw_stop
else
	log "no setpriv or prlimit, or RLIMIT_NICE cannot be raised here: the RLIMIT_NICE case skipped"
fi

printf '#!/bin/sh\nexec setsid "%s" "$@"\n' "$real" >"$FAIRWAY"
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
