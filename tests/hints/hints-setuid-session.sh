#!/bin/sh
# hints-setuid-session.sh root: an application alone in its session, whose
# autogroup fairway raised, starts a setuid-root program (a copy of sleep)
# in that session and exits. The session, and its raised autogroup, live
# on with root's process alone in it, which is not of the application: the
# group must still go back to what it was. fairway is stopped while the
# client exits and is reaped, so that when it looks, no process of the
# application is left to write the group through.
#
# The client runs as $FW_USER on root's fairway. Only root's fairway may
# write the group through root's process; with a file capability fairway
# can give it back only while a process of the user's is left in the
# session (docs/architecture.md, "Trust edges").
. "$(dirname "$0")/lib-hints.sh"
need_privilege
need_autogroups
need_prog setpriv

deploy=${1:-root}
fw_deploy "$deploy"
[ "$deploy" = root ] || skip "only root's fairway may write through root's process"
id -u "$FW_USER" >/dev/null 2>&1 || skip "no user $FW_USER"

group_is() {
	FW_SEEN="autogroup nice $(autogroup_nice "$1")"
	[ "$(autogroup_nice "$1")" = "$2" ]
}

# The setuid-root program, which $FW_USER may run.
chmod 711 "$FW_TMP"
mkdir -m 755 "$FW_TMP/suid"
cp "$(command -v sleep)" "$FW_TMP/suid/sleep"
chmod 4755 "$FW_TMP/suid/sleep"

fw_start --no-xwayland -d
# The client as $FW_USER, on root's socket.
chmod 711 "$XDG_RUNTIME_DIR"
chmod 666 "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY"
FW_AS="setpriv --reuid $FW_USER --regid $FW_GROUP --clear-groups --inh-caps=-all"
hint_client_start alone 2 setsid
[ "$(session_of "$HC_PID")" = "$HC_PID" ] || fail "the client is not in a session of its own"
before=$(autogroup_nice "$HC_PID")
hint_client_interactive alone
wait_until 10 "its autogroup at nice $GROUP_BOOST" group_is "$HC_PID" "$GROUP_BOOST"

hint_client_send "spawn-exec $FW_TMP/suid/sleep"
wait_until 10 "the child spawned" has_line "$HC_OUT" '^spawned '
child=$(sed -n 's/^spawned //p' "$HC_OUT")
FW_HELPERS="$FW_HELPERS $child"
euid_root() {
	FW_SEEN=$(grep '^Uid:' "/proc/$child/status" 2>&1)
	[ "$(awk '/^Uid:/ {print $3}' "/proc/$child/status")" = 0 ]
}
wait_until 10 "the child running setuid root" euid_root
[ "$(session_of "$child")" = "$HC_PID" ] || fail "the child left the session"

fw=$(fairway_pid)
kill -STOP "$fw"
exec 3>&-
wait "$HC_PID"
alive "$HC_PID" && fail "the client still runs"
kill -CONT "$fw"
log "the client exited; root's pid $child is left in its session"
wait_until 20 "the autogroup of root's process given back" group_is "$child" "$before"
log "the group went back to nice $before"
grep "autogroup" "$FW_TMP/fairway-1.err" | tail -n 2 | sed 's/^/# fairway: /'
kill "$child"
pass
