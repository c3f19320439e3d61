#!/bin/sh
# A sandbox made through wp_security_context_v1 (Flatpak 1.15.6 and later)
# is a sandbox for the global filter, whatever its root holds:
#
# 1. a client outside any sandbox is shown wp_security_context_manager_v1
#    and makes a listener with it (fw-test-sandbox);
# 2. wayland-info connected through that listener, through the gate (or
#    libwayland with FW_SCHEDULER=off), lists the globals every client
#    has and none of the privileged ones, though nothing in its root says
#    it is sandboxed;
# 3. a client of the sandbox cannot make a sandbox of its own: it is not
#    shown the manager;
# 4. "sandbox allow" lines naming an app_id= or an engine= show their
#    globals to the sandboxes they match and to no other, nor to a
#    sandbox known by /.flatpak-info alone (fw-flatpak-run.sh, as root);
# 5. through the gate, a client of the sandbox is known by its own
#    process: the scheduler manager lists its pid and command.
. "$FW_TESTS_DIR/lib.sh"
: "${FW_TEST_SANDBOX:?}" "${FW_FLATPAK_RUN:?}" "${FW_TEST_DIALOG:?}"
: "${FW_TEST_SCHEDULER:?}"
need_prog wayland-info

PRIVILEGED="zwlr_screencopy_manager_v1 zwlr_export_dmabuf_manager_v1
	zwlr_data_control_manager_v1 zwp_virtual_keyboard_manager_v1
	zwlr_virtual_pointer_manager_v1 zwp_input_method_manager_v2
	zwlr_foreign_toplevel_manager_v1 zwlr_gamma_control_manager_v1
	zwlr_output_manager_v1 zwlr_output_power_manager_v1
	ext_session_lock_manager_v1 fairway_scheduler_manager_v1
	wp_security_context_manager_v1 ext_foreign_toplevel_list_v1"

start() {
	if [ "${FW_SCHEDULER:-on}" = off ]; then
		fw_start --no-xwayland --scheduler off
	else
		fw_start --no-xwayland
	fi
}

# shown FILE: the privileged globals wayland-info listed in FILE.
shown() {
	for name in $PRIVILEGED; do
		grep -q "^interface: '$name'," "$1" && echo "$name"
	done
}

# sandbox NAME ENGINE APP_ID: a sandbox listening at $XDG_RUNTIME_DIR/NAME.
sandbox() {
	mkfifo "$FW_TMP/$1.in"
	"$FW_TEST_SANDBOX" "$XDG_RUNTIME_DIR/$1" "$2" "$3" \
		<>"$FW_TMP/$1.in" >"$FW_TMP/$1.out" 2>"$FW_TMP/$1.err" &
	FW_HELPERS="$FW_HELPERS $!"
	wait_until 20 "the sandbox $1 listening" has_line "$FW_TMP/$1.out" '^listening'
}

# info NAME FILE: wayland-info through sandbox NAME's listener into FILE.
info() {
	WAYLAND_DISPLAY="$XDG_RUNTIME_DIR/$1" wayland-info >"$2" 2>&1 ||
		fail "wayland-info in sandbox $1 failed: $(tail -n 3 "$2")"
	grep -q "^interface: 'wl_compositor'," "$2" ||
		fail "wayland-info in sandbox $1 listed nothing: $(head -n 5 "$2")"
}

start

# 1. Outside any sandbox.
wayland-info >"$FW_TMP/plain.info" 2>&1 || fail "wayland-info failed"
for name in wp_security_context_manager_v1 zwlr_screencopy_manager_v1; do
	grep -q "^interface: '$name'," "$FW_TMP/plain.info" ||
		fail "a client outside a sandbox is not shown $name"
done
sandbox app org.fairway.test org.fairway.Sandboxed

# 2. Inside.
info app "$FW_TMP/app.info"
leaked=$(shown "$FW_TMP/app.info" | tr '\n' ' ')
[ -z "$leaked" ] || fail "a security context's client is shown: $leaked"
log "a security context's client is shown none of the privileged globals"

# 3. No sandbox within the sandbox.
WAYLAND_DISPLAY="$XDG_RUNTIME_DIR/app" "$FW_TEST_SANDBOX" \
	"$XDG_RUNTIME_DIR/nested" org.fairway.test org.fairway.Nested \
	</dev/null >"$FW_TMP/nested.out" 2>&1
status=$?
[ "$status" -eq 3 ] ||
	fail "a sandboxed client made a sandbox (exit $status): $(cat "$FW_TMP/nested.out")"
log "a sandboxed client is not shown the security context manager"
fw_stop

# 4. What the configuration lets each sandbox have.
cat >"$XDG_CONFIG_HOME/fairway/config" <<CONFIG
sandbox allow app_id=org.fairway.Sand* zwlr_screencopy_manager_v1
sandbox allow engine=org.fairway.other zwlr_gamma_control_manager_v1
sandbox allow app_id=org.fairway.Sandboxed engine=org.fairway.other zwlr_data_control_manager_v1
scheduler manager $FW_TEST_SCHEDULER
CONFIG
start
sandbox app2 org.fairway.test org.fairway.Sandboxed
sandbox other org.fairway.other org.fairway.Other
info app2 "$FW_TMP/app-allowed.info"
info other "$FW_TMP/other-allowed.info"
allowed=$(shown "$FW_TMP/app-allowed.info" | tr '\n' ' ')
[ "$allowed" = "zwlr_screencopy_manager_v1 " ] ||
	fail "sandbox allow app_id=: org.fairway.Sandboxed is shown '$allowed'"
allowed=$(shown "$FW_TMP/other-allowed.info" | tr '\n' ' ')
[ "$allowed" = "zwlr_gamma_control_manager_v1 " ] ||
	fail "sandbox allow engine=: org.fairway.other's sandbox is shown '$allowed'"
log "sandbox allow app_id= and engine= show each sandbox its own"
if [ "$(id -u)" = 0 ]; then
	"$FW_FLATPAK_RUN" wayland-info >"$FW_TMP/flatpak.info" 2>&1 ||
		fail "wayland-info in a Flatpak root failed: $(tail -n 3 "$FW_TMP/flatpak.info")"
	leaked=$(shown "$FW_TMP/flatpak.info" | tr '\n' ' ')
	[ -z "$leaked" ] ||
		fail "a sandbox without a security context is shown: $leaked"
	log "a sandbox known by /.flatpak-info alone is shown none of them"
fi

# 5. Its own process, through the gate (the manager needs it).
[ "${FW_SCHEDULER:-on}" = off ] && pass
mkfifo "$FW_TMP/windows.in"
WAYLAND_DISPLAY="$XDG_RUNTIME_DIR/app2" "$FW_TEST_DIALOG" \
	<>"$FW_TMP/windows.in" >"$FW_TMP/windows.out" 2>"$FW_TMP/windows.err" &
windows=$!
FW_HELPERS="$FW_HELPERS $windows"
wait_until 20 "the sandboxed windows mapped" has_line "$FW_TMP/windows.out" '^mapped'
"$FW_TEST_SCHEDULER" see >"$FW_TMP/see.out" 2>&1 ||
	fail "fw-test-scheduler see failed: $(cat "$FW_TMP/see.out")"
grep -q "^client $windows fw-test-dialog\$" "$FW_TMP/see.out" ||
	fail "the sandboxed client (pid $windows) is not known by its process: $(cat "$FW_TMP/see.out")"
log "the sandboxed client is gated and known as pid $windows"
pass
