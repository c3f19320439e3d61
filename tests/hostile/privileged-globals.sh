#!/bin/sh
# The globals that read the screen or the clipboard, make input, or manage
# outputs and other clients are not for every client:
#
# 1. a client in a Flatpak sandbox (/.flatpak-info in its root,
#    fw-flatpak-run.sh) is shown none of them, while one outside is;
# 2. while the session is locked, the clipboard cannot be read through
#    data-control (wl-paste) and the screen cannot be copied (grim), and
#    both work again once it is unlocked.
. "$FW_TESTS_DIR/lib.sh"
: "${FW_TEST_LOCKER:?}" "${FW_FLATPAK_RUN:?}"
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
	zwlr_input_inhibit_manager_v1 ext_session_lock_manager_v1
	fairway_scheduler_manager_v1"

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
log "locked: wl-paste said '$(head -c 100 "$FW_TMP/locked.paste")', grim $(head -c 100 "$FW_TMP/locked.grim")"
echo unlock >"$FW_TMP/locker.cmd"
wait_until 20 "the session unlocked" has_line "$FW_TMP/locker.out" '^unlocked'
wait_until 20 "the clipboard back after the unlock" pasted
screenshot || fail "grim failed after the unlock"
pass
