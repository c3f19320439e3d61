#!/bin/sh
# With --scheduler off no gate pins a client's process, so fairway pins it
# itself as libwayland accepts the connection (client_create.c), and the
# sandbox is decided on that process, never on whoever holds its pid by
# then:
#
# 1. a client outside any sandbox is shown the privileged globals, so the
#    gate-less pin names real clients;
# 2. a process in a Flatpak sandbox (fw-flatpak-run.sh) connects, makes
#    sure fairway accepted it, hands the connection to a child and exits;
#    its pid goes to root's process outside any sandbox (the test runs in
#    a pid namespace of its own, where ns_last_pid hands it out at once);
#    only then does the child ask for the globals. It must be shown none
#    of the privileged ones.
#
# What 2 proves: the decision is not made on the pid's new holder. It is
# made on the pinned process, which is gone, and a process fairway cannot
# name counts as sandboxed; the child is not named either. It does not
# race the kernel's pid reuse against the accept itself (a pid reused
# between connect and accept), which SO_PEERPIDFD closes on Linux 6.5 and
# later and a start-time check narrows before.
if [ -z "${FW_PIDNS:-}" ] && [ "$(id -u)" = 0 ] &&
	unshare --pid --fork --mount-proc true 2>/dev/null; then
	FW_PIDNS=1 exec unshare --pid --fork --mount-proc --kill-child "$0" "$@"
fi
. "$FW_TESTS_DIR/lib.sh"
: "${FW_FLATPAK_RUN:?}"
need_prog wayland-info
need_prog python3
[ -n "${FW_PIDNS:-}" ] || skip "needs root and unshare for a pid namespace"
[ -w /proc/sys/kernel/ns_last_pid ] || skip "no ns_last_pid here"

PRIVILEGED="zwlr_screencopy_manager_v1 zwlr_data_control_manager_v1
	zwp_virtual_keyboard_manager_v1 ext_session_lock_manager_v1"
shown() {
	for name in $PRIVILEGED; do
		grep -q "^interface: '$name'," "$1" && echo "$name"
	done
}

fw_start --no-xwayland --scheduler off

# 1.
wayland-info >"$FW_TMP/plain.info" 2>&1 || fail "wayland-info failed"
[ "$(shown "$FW_TMP/plain.info" | wc -l)" = 4 ] ||
	fail "a client outside a sandbox is shown only: $(shown "$FW_TMP/plain.info" | tr '\n' ' ')"
log "outside a sandbox: $(shown "$FW_TMP/plain.info" | tr '\n' ' ')"

# 2. The handover, in the sandbox.
mkfifo "$FW_TMP/go"
start_bg "$FW_FLATPAK_RUN" python3 -c '
import os, socket, struct, sys
go, out, info = sys.argv[1:4]
path = os.path.join(os.environ["XDG_RUNTIME_DIR"], os.environ["WAYLAND_DISPLAY"])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(path)
# wl_display.sync, new id 2: answered, the connection was accepted.
s.sendall(struct.pack("=III", 1, 12 << 16, 2))
got = b""
while len(got) < 24:
    more = s.recv(24 - len(got))
    if not more:
        sys.exit("hung up on")
    got += more
fd = s.detach()
os.set_inheritable(fd, True)
child = os.fork()
if child == 0:
    os.environ["WAYLAND_SOCKET"] = str(fd)
    sink = os.open(info, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(sink, 1)
    os.dup2(sink, 2)
    os.execvp("sh", ["sh", "-c", "read go <\"$0\"; exec wayland-info", go])
with open(out, "w") as f:
    f.write("connected %d\nchild %d\n" % (os.getpid(), child))
' "$FW_TMP/go" "$FW_TMP/handover.out" "$FW_TMP/sandboxed.info"
connector=$BG_PID
wait_until 20 "the sandboxed handover" has_line "$FW_TMP/handover.out" '^child '
[ "$(sed -n 's/^connected //p' "$FW_TMP/handover.out")" = "$connector" ] ||
	fail "the connection came from $(sed -n 's/^connected //p' "$FW_TMP/handover.out"), not $connector"
child=$(sed -n 's/^child //p' "$FW_TMP/handover.out")
FW_HELPERS="$FW_HELPERS $child"
wait "$connector"
alive "$connector" && fail "the connecting process still runs"

echo $((connector - 1)) >/proc/sys/kernel/ns_last_pid ||
	fail "cannot write ns_last_pid"
start_bg sleep 600
[ "$BG_PID" = "$connector" ] || fail "the sleep got pid $BG_PID, not $connector"
[ -e "/proc/$BG_PID/root/.flatpak-info" ] && fail "the sleep runs in the sandbox"
log "pid $connector now: root's sleep, outside any sandbox"

echo go >"$FW_TMP/go"
listed() {
	FW_SEEN=$(tail -n 3 "$FW_TMP/sandboxed.info" 2>&1)
	! alive "$child" && has_line "$FW_TMP/sandboxed.info" "^interface: 'wl_compositor',"
}
wait_until 20 "the child's wayland-info" listed
leaked=$(shown "$FW_TMP/sandboxed.info" | tr '\n' ' ')
[ -z "$leaked" ] ||
	fail "a sandboxed client whose pid went to a process outside was shown: $leaked"
log "the sandboxed client was shown none of the privileged globals"
pass
