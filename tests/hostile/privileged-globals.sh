#!/bin/sh
# The globals that read the screen or the clipboard, make input, or manage
# outputs and other clients are not for every client:
#
# 1. a client in a Flatpak sandbox (/.flatpak-info in its root,
#    fw-flatpak-run.sh) is shown none of them, while one outside is;
# 2. while the session is locked, the clipboard cannot be read through
#    data-control (wl-paste) and the screen cannot be copied (grim), not
#    even by a client that bound screencopy before the lock
#    (fw-test-capture), and all of it works again once it is unlocked,
#    with the clipboard as it was;
# 3. "sandbox allow" in the configuration shows a sandboxed client the
#    globals it names, and only those.
. "$FW_TESTS_DIR/lib.sh"
: "${FW_TEST_LOCKER:?}" "${FW_FLATPAK_RUN:?}" "${FW_TEST_CAPTURE:?}"
need_prog wayland-info
need_prog wl-copy
need_prog wl-paste
need_prog grim
[ "$(id -u)" = 0 ] || skip "needs root for a sandbox's mount namespace"

PRIVILEGED="zwlr_screencopy_manager_v1 zwlr_export_dmabuf_manager_v1
	zwlr_data_control_manager_v1 zwp_virtual_keyboard_manager_v1
	zwlr_virtual_pointer_manager_v1 zwp_input_method_manager_v2
	zwlr_foreign_toplevel_manager_v1 zwlr_gamma_control_manager_v1
	zwlr_output_manager_v1 zwlr_output_power_manager_v1
	ext_session_lock_manager_v1 fairway_scheduler_manager_v1
	wp_security_context_manager_v1 ext_foreign_toplevel_list_v1"

fw_start --no-xwayland

# shown FILE: the privileged globals wayland-info listed in FILE.
shown() {
	for name in $PRIVILEGED; do
		grep -q "^interface: '$name'," "$1" && echo "$name"
	done
}

# 1. Outside and inside a sandbox.
wayland-info >"$FW_TMP/plain.info" 2>&1 || fail "wayland-info failed"
for name in zwlr_screencopy_manager_v1 zwlr_data_control_manager_v1 \
	zwp_virtual_keyboard_manager_v1 ext_session_lock_manager_v1; do
	grep -q "^interface: '$name'," "$FW_TMP/plain.info" ||
		fail "a client outside a sandbox is not shown $name"
done
"$FW_FLATPAK_RUN" wayland-info >"$FW_TMP/sandboxed.info" 2>&1 ||
	fail "wayland-info in a sandbox failed: $(tail -n 3 "$FW_TMP/sandboxed.info")"
grep -q "^interface: 'wl_compositor'," "$FW_TMP/sandboxed.info" ||
	fail "the sandboxed wayland-info listed nothing: $(head -n 5 "$FW_TMP/sandboxed.info")"
leaked=$(shown "$FW_TMP/sandboxed.info" | tr '\n' ' ')
[ -z "$leaked" ] || fail "a sandboxed client is shown: $leaked"
log "a sandboxed client is shown none of the privileged globals"

# 2. The clipboard and the screen behind a lock.
secret="fw-secret-$$"
timeout 20 wl-copy "$secret" || fail "wl-copy failed"
pasted() {
	FW_SEEN=$(timeout 10 wl-paste --no-newline 2>&1)
	[ "$FW_SEEN" = "$secret" ]
}
wait_until 20 "the clipboard to hold the secret" pasted
mkfifo "$FW_TMP/capture.cmd"
"$FW_TEST_CAPTURE" <>"$FW_TMP/capture.cmd" >"$FW_TMP/capture.out" \
	2>"$FW_TMP/capture.err" &
FW_HELPERS="$FW_HELPERS $!"
wait_until 20 "the capturing client bound" has_line "$FW_TMP/capture.out" '^bound'
echo capture >"$FW_TMP/capture.cmd"
wait_until 20 "a capture before the lock" has_line "$FW_TMP/capture.out" '^ready'
mkfifo "$FW_TMP/locker.cmd"
"$FW_TEST_LOCKER" --color 30c060 <>"$FW_TMP/locker.cmd" >"$FW_TMP/locker.out" \
	2>"$FW_TMP/locker.err" &
FW_HELPERS="$FW_HELPERS $!"
wait_until 20 "the session locked" has_line "$FW_TMP/locker.out" '^locked'
timeout 10 wl-paste --no-newline >"$FW_TMP/locked.paste" 2>&1
grep -q "$secret" "$FW_TMP/locked.paste" &&
	fail "wl-paste read the clipboard while locked"
timeout 10 grim -t ppm "$FW_TMP/locked.ppm" >"$FW_TMP/locked.grim" 2>&1 &&
	fail "grim copied the screen while locked"
# answered N: a line past the first N of its answers; FW_SEEN, the last.
answered() {
	seen=$(cat "$FW_TMP/capture.out")
	FW_SEEN=$(printf '%s\n' "$seen" | tail -n 1)
	[ "$(printf '%s\n' "$seen" | wc -l)" -gt "$1" ]
}
n=$(wc -l <"$FW_TMP/capture.out")
echo capture >"$FW_TMP/capture.cmd"
wait_until 20 "the bound client's capture answered" answered "$n"
[ "$FW_SEEN" = failed ] ||
	fail "a client bound before the lock captured the screen while locked: $FW_SEEN"
log "locked: wl-paste said '$(head -c 100 "$FW_TMP/locked.paste")', grim $(head -c 100 "$FW_TMP/locked.grim")"
echo unlock >"$FW_TMP/locker.cmd"
wait_until 20 "the session unlocked" has_line "$FW_TMP/locker.out" '^unlocked'
wait_until 20 "the clipboard back after the unlock" pasted
screenshot || fail "grim failed after the unlock"
n=$(wc -l <"$FW_TMP/capture.out")
echo capture >"$FW_TMP/capture.cmd"
wait_until 20 "the bound client's capture after the unlock" answered "$n"
[ "$FW_SEEN" = ready ] || fail "the bound client cannot capture after the unlock: $FW_SEEN"
fw_stop

# 3. What the configuration lets a sandbox have.
echo "sandbox allow zwlr_screencopy_manager_v1 zwlr_gamma_control_manager_v1" \
	>"$XDG_CONFIG_HOME/fairway/config"
fw_start --no-xwayland
"$FW_FLATPAK_RUN" wayland-info >"$FW_TMP/allowed.info" 2>&1 ||
	fail "wayland-info in a sandbox failed: $(tail -n 3 "$FW_TMP/allowed.info")"
allowed=$(shown "$FW_TMP/allowed.info" | tr '\n' ' ')
[ "$allowed" = "zwlr_screencopy_manager_v1 zwlr_gamma_control_manager_v1 " ] ||
	fail "with sandbox allow, a sandboxed client is shown: $allowed"
log "sandbox allow: $allowed"
pass
