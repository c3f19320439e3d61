#!/bin/sh
# With a COMMAND, fairway runs it in the session and exits with its status.
. "$(dirname "$0")/lib.sh"

run_cmd() {
	timeout 60 "$FAIRWAY" --backend headless --socket "$FW_SOCKET" -- "$@" \
		>"$FW_TMP/cmd.out" 2>"$FW_TMP/fairway.err"
}

run_cmd sh -c 'exit 3'
status=$?
[ $status -eq 3 ] || fail "fairway -- sh -c 'exit 3' exited $status, want 3"
log "exit 3 passed through"

run_cmd sh -c 'kill -TERM $$'
status=$?
[ $status -eq 143 ] ||
	fail "fairway -- sh -c 'kill -TERM \$\$' exited $status, want 143"
log "death by SIGTERM reported as 143"

# The command sees a live session: both displays set, the socket there.
run_cmd sh -c 'echo "WAYLAND_DISPLAY=$WAYLAND_DISPLAY DISPLAY=$DISPLAY";
	test -n "$WAYLAND_DISPLAY" && test -n "$DISPLAY" &&
	test -S "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY" && wayland-info >/dev/null'
status=$?
[ $status -eq 0 ] || {
	cat "$FW_TMP/cmd.out"
	fail "the command did not find WAYLAND_DISPLAY, DISPLAY and a working socket (exit $status)"
}
log "command ran with $(cat "$FW_TMP/cmd.out")"

for mode in on off; do
	timeout 60 "$FAIRWAY" --backend headless --socket "$FW_SOCKET" \
		--scheduler $mode -- wayland-info >"$FW_TMP/cmd.out" 2>"$FW_TMP/fairway.err"
	status=$?
	[ $status -eq 0 ] ||
		fail "fairway --scheduler $mode -- wayland-info exited $status, want 0"
	log "--scheduler $mode serves clients"
done

# No GPU: --backend drm fails at once and says why, and auto runs headless.
if ls /dev/dri/card* >/dev/null 2>&1; then
	log "this machine has a DRM card: the no-GPU case is not tried"
else
	timeout 60 "$FAIRWAY" --backend drm --socket "$FW_SOCKET" -- true \
		>"$FW_TMP/cmd.out" 2>"$FW_TMP/fairway.err"
	status=$?
	[ $status -ne 0 ] || fail "fairway --backend drm started without a GPU"
	grep -q -- '--backend drm: /dev/dri has no card' "$FW_TMP/fairway.err" ||
		fail "no clear message for --backend drm without a GPU: $(tail -n 3 "$FW_TMP/fairway.err")"
	env -u WAYLAND_DISPLAY -u DISPLAY -u WLR_BACKENDS XDG_SESSION_TYPE=tty \
		timeout 60 "$FAIRWAY" -V --socket "$FW_SOCKET" -- true \
		>"$FW_TMP/cmd.out" 2>"$FW_TMP/fairway.err"
	status=$?
	[ $status -eq 0 ] || fail "fairway on a tty without a GPU exited $status, want 0"
	grep -q 'No GPU (/dev/dri has no card): running headless' "$FW_TMP/fairway.err" ||
		fail "auto did not say it runs headless: $(tail -n 3 "$FW_TMP/fairway.err")"
	log "no GPU: --backend drm refused with a message, auto ran headless"
fi
pass
