#!/bin/sh
# With no display to run on and no COMMAND, fairway runs headless with its
# demo even when its output goes to a file: the demo's clients show on
# screen, their own output goes to the file the demo names, and fairway's
# output keeps only its ready lines and its report.
. "$(dirname "$0")/lib.sh"
need_prog grim

# A demo client that says something on both its outputs, then shows.
mkdir -p "$FW_TMP/bin"
cat >"$FW_TMP/bin/foot" <<SH
#!/bin/sh
echo demo-client-says-out
echo demo-client-says-err >&2
exec "$FW_TEST_CLIENT" --color ff00ff --size 200x200 --duration 120
SH
chmod +x "$FW_TMP/bin/foot"

FW_OUT=$FW_TMP/fairway-demo.out
# No WLR_BACKENDS: as on a machine with no display, not as CI asks. The
# fake foot alone on the PATH: no other demo client maps over it.
timeout "$FW_LIFETIME" env -u WLR_BACKENDS -u XDG_SESSION_TYPE \
	PATH="$FW_TMP/bin" "$FAIRWAY" --socket "$FW_SOCKET" --no-xwayland </dev/null \
	>"$FW_OUT" 2>"$FW_TMP/fairway-demo.err" &
FW_PID=$!
wait_until 30 "WAYLAND_DISPLAY= line from fairway" has_line "$FW_OUT" '^WAYLAND_DISPLAY='
export WAYLAND_DISPLAY=$FW_SOCKET

wait_until 30 "the demo's start line" has_line "$FW_OUT" '^fairway: demo started'
wait_color 30 ff00ff 20000
log "the demo's client shows on screen"

log_file=$(sed -n 's/^fairway: demo started .*(their output: \(.*\)); .*/\1/p' "$FW_OUT")
[ -n "$log_file" ] || fail "the demo does not say where its clients' output goes: $(grep demo "$FW_OUT")"
wait_until 30 "the demo client's output in $log_file" has_line "$log_file" demo-client-says-err
has_line "$log_file" demo-client-says-out || fail "no demo client's stdout in $log_file"
wait_until 30 "the demo's report" has_line "$FW_OUT" 'clients connected'
grep -q demo-client-says "$FW_OUT" "$FW_TMP/fairway-demo.err" &&
	fail "the demo client's output is mixed into fairway's"
pass
