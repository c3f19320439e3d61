#!/bin/sh
# The configuration file's keyboard lines reach a real keyboard: a fairway
# nested in another (wayland backend) reads the outer seat's keyboard as an
# input device, and its client is sent the configured keymap and repeat
# rate. A reload sends both again, changed, to the client still connected.
# Headless, with no keyboard device, the seat's own keyboard follows the
# file too. (Virtual keyboards bring their own keymap.)
. "$(dirname "$0")/../compositor/lib.sh"

config=$FW_TMP/outer.conf
echo "keyboard layout de" >"$config"
fw_start --no-xwayland --config "$config"
outer=$WAYLAND_DISPLAY

start_bg "$FW_TEST_CLIENT" --color 40c020 --size 200x150 --duration 60 \
	>"$FW_TMP/outer-client.out" 2>&1
wait_until 30 "the German keymap at a headless client" \
	has_line "$FW_TMP/outer-client.out" '^keymap German$'
echo "keyboard layout fr" >"$config"
kill -HUP "$(fairway_pid)"
wait_until 30 "the French keymap at the headless client after the reload" \
	has_line "$FW_TMP/outer-client.out" '^keymap French$'

inner_config=$FW_TMP/inner.conf
cat >"$inner_config" <<'CONF'
keyboard layout de
keyboard repeat-rate 40
keyboard repeat-delay 250
CONF
# Under ASan, leaks are not looked for in the inner one, on the wayland
# backend: wlroots 0.15's left its last output buffers and their
# wl_buffers behind at exit. 0.18's backend_destroy frees them, so this
# may no longer be needed.
env -u WLR_BACKENDS WAYLAND_DISPLAY="$outer" \
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$FAIRWAY" -V --backend wayland --no-xwayland --socket "inner-$$" \
	--config "$inner_config" --output-size 640x480 -- \
	"$FW_TEST_CLIENT" --color 2040c0 --size 200x150 --duration 60 \
	>"$FW_TMP/inner.out" 2>"$FW_TMP/inner.err" &
inner=$!
FW_HELPERS="$FW_HELPERS $inner"

wait_until 30 "the German keymap at the inner client" \
	has_line "$FW_TMP/inner.out" '^keymap German$'
wait_until 30 "repeat 40/250 at the inner client" \
	has_line "$FW_TMP/inner.out" '^repeat 40 250$'

cat >"$inner_config" <<'CONF'
keyboard layout fr
keyboard repeat-rate 50
keyboard repeat-delay 300
CONF
# The inner fairway is the `timeout`-less child started above.
kill -HUP "$inner"
wait_until 30 "the French keymap after the reload" \
	has_line "$FW_TMP/inner.out" '^keymap French$'
wait_until 30 "repeat 50/300 after the reload" \
	has_line "$FW_TMP/inner.out" '^repeat 50 300$'
has_line "$FW_TMP/inner.out" '^disconnected' && fail "the inner client lost its compositor"
kill -TERM "$inner"
wait "$inner"
status=$?
[ "$status" -eq 0 ] || fail "the inner fairway exited $status$(signal_name $status) on SIGTERM"
pass
