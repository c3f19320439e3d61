#!/bin/sh
# The installed session script, as a display manager runs it (with no
# session bus and with systemd's user manager there, stubbed): it sets
# XDG_CURRENT_DESKTOP and friends for fairway, starts a D-Bus session bus,
# imports WAYLAND_DISPLAY and the session variables into systemd and D-Bus
# activation once fairway is ready, logs to a file under $XDG_STATE_HOME
# (or the journal) and says where; a client can connect; when fairway
# exits the session ends with it, though a command it started lives on,
# and systemd forgets the display. fairway leads a session of its own.
. "$(dirname "$0")/../compositor/lib.sh"
: "${FW_BUILD_ROOT:?}" "${FW_BINDIR:?}"
need_prog dbus-run-session
need_prog dbus-send

dest=$FW_TMP/dest
meson install -C "$FW_BUILD_ROOT" --no-rebuild --destdir "$dest" \
	>"$FW_TMP/install.out" 2>&1 || fail "meson install failed"
session=$dest$FW_BINDIR/fairway-session

# Stand-ins for systemctl and dbus-update-activation-environment that
# record what they were asked, with the values they would import.
stubs=$FW_TMP/stubs
mkdir -p "$stubs"
cat >"$stubs/systemctl" <<'STUB'
#!/bin/sh
[ "$1" = --user ] || exit 1
shift
case $1 in
show-environment) exit 0 ;;
import-environment)
	shift
	for v in "$@"; do eval "printf 'import %s=%s\n' \$v \"\${$v-}\""; done >>"$STUB_LOG"
	;;
unset-environment)
	shift
	echo "unset $*" >>"$STUB_LOG"
	;;
esac
STUB
cat >"$stubs/dbus-update-activation-environment" <<'STUB'
#!/bin/sh
{
	echo "dbus-bus ${DBUS_SESSION_BUS_ADDRESS:-none}"
	for v in "$@"; do eval "printf 'dbus %s=%s\n' \$v \"\${$v-}\""; done
} >>"$STUB_LOG"
STUB
chmod +x "$stubs/systemctl" "$stubs/dbus-update-activation-environment"
export STUB_LOG=$FW_TMP/stub.log
: >"$STUB_LOG"

# Something fairway starts that outlives it, holding its output.
cat >"$XDG_CONFIG_HOME/fairway/config" <<CONF
exec echo \$\$ >"$FW_TMP/lingering.pid"; exec sleep 60
CONF

export XDG_STATE_HOME=$FW_TMP/state
journal=no
command -v systemd-cat >/dev/null 2>&1 && [ -S /run/systemd/journal/stdout ] && journal=yes
[ -S "$XDG_RUNTIME_DIR/bus" ] && fail "a session bus is already there"
env -u DBUS_SESSION_BUS_ADDRESS -u XDG_CURRENT_DESKTOP -u XDG_SESSION_TYPE \
	PATH="$stubs:$PATH" WLR_BACKENDS=headless \
	"$session" --no-xwayland --socket "$FW_SOCKET" \
	>"$FW_TMP/session.out" 2>"$FW_TMP/session.err" &
session_pid=$!
FW_HELPERS="$FW_HELPERS $session_pid"

wait_until 30 "the session's Wayland socket" test -S "$XDG_RUNTIME_DIR/$FW_SOCKET"
wait_until 30 "the environment imported into systemd" \
	has_line "$STUB_LOG" "^import WAYLAND_DISPLAY=$FW_SOCKET\$"
for want in "import XDG_CURRENT_DESKTOP=fairway:wlroots" "import XDG_SESSION_TYPE=wayland" \
	"import XDG_SESSION_DESKTOP=fairway" "dbus WAYLAND_DISPLAY=$FW_SOCKET" \
	"dbus XDG_CURRENT_DESKTOP=fairway:wlroots"; do
	wait_until 10 "\"$want\" from the stubs" has_line "$STUB_LOG" "^$want\$"
done
has_line "$STUB_LOG" "^dbus-bus none" && fail "D-Bus activation was updated without a bus"
has_line "$STUB_LOG" "DISPLAY=\$" && fail "an empty DISPLAY was imported"

# fairway itself: the installed binary, run by the script, leading a
# session of its own (its autogroup is its own).
fairway=$(pgrep -f "^$dest$FW_BINDIR/fairway --no-xwayland" | head -n 1)
[ -n "$fairway" ] || fail "no installed fairway running"
FW_HELPERS="$FW_HELPERS $fairway"
environ() {
	tr '\0' '\n' <"/proc/$fairway/environ" | grep "^$1=" | cut -d= -f2-
}
[ "$(environ XDG_CURRENT_DESKTOP)" = fairway:wlroots ] || fail "fairway's XDG_CURRENT_DESKTOP is '$(environ XDG_CURRENT_DESKTOP)'"
[ "$(environ XDG_SESSION_TYPE)" = wayland ] || fail "fairway's XDG_SESSION_TYPE is '$(environ XDG_SESSION_TYPE)'"
bus=$(environ DBUS_SESSION_BUS_ADDRESS)
[ -n "$bus" ] || fail "fairway has no session bus"
DBUS_SESSION_BUS_ADDRESS=$bus timeout 10 dbus-send --session --print-reply \
	--dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.ListNames \
	>/dev/null || fail "the session bus at $bus does not answer"
[ "$(ps -o sid= -p "$fairway" | tr -d ' ')" = "$fairway" ] ||
	fail "fairway $fairway leads no session of its own"
log "fairway $fairway runs with XDG_CURRENT_DESKTOP=fairway:wlroots and bus $bus"

# Where the log goes, said on stderr; here, a file, which has the log.
if [ "$journal" = yes ]; then
	has_line "$FW_TMP/session.err" "fairway logs to the journal: journalctl -t fairway" ||
		fail "the script does not say the log is in the journal"
else
	log_file=$XDG_STATE_HOME/fairway/fairway.log
	has_line "$FW_TMP/session.err" "fairway logs to $log_file" ||
		fail "the script does not say where the log is: $(cat "$FW_TMP/session.err")"
	wait_until 10 "the ready line in $log_file" has_line "$log_file" "^WAYLAND_DISPLAY=$FW_SOCKET\$"
fi

# The session works: a client maps.
WAYLAND_DISPLAY=$FW_SOCKET "$FW_TEST_CLIENT" --duration 3 >"$FW_TMP/client.out" 2>&1 &
wait_until 20 "a client mapped in the session" has_line "$FW_TMP/client.out" '^mapped'

# fairway exits, and the session with it, however long what it started
# lives on.
wait_until 10 "the autostarted command" test -s "$FW_TMP/lingering.pid"
lingering=$(cat "$FW_TMP/lingering.pid")
FW_HELPERS="$FW_HELPERS $lingering"
kill -TERM "$fairway"
wait_until 20 "the session script to end with fairway" sh -c "! kill -0 $session_pid 2>/dev/null"
wait "$session_pid"
status=$?
[ "$status" -eq 0 ] || fail "the session ended with status $status, want fairway's 0"
has_line "$STUB_LOG" "^unset WAYLAND_DISPLAY DISPLAY" ||
	fail "the display was not taken back from systemd"
pass
