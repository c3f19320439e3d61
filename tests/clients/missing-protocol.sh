#!/bin/sh
# usage: missing-protocol.sh ECHO_CLIENT
# weston has no zwlr_virtual_pointer_manager_v1: fairway-echo must exit
# non-zero and name what is missing. Skipped (77) when weston cannot start.
set -u
echo_client=$1
command -v weston >/dev/null 2>&1 || exit 77
tmp=$(mktemp -d)
chmod 700 "$tmp"
export XDG_RUNTIME_DIR="$tmp"
unset WAYLAND_DISPLAY DISPLAY
weston --backend=headless-backend.so --socket=fw-missing --idle-time=0 \
	--shell=kiosk-shell.so >"$tmp/weston.log" 2>&1 &
weston_pid=$!
trap 'kill $weston_pid 2>/dev/null; wait $weston_pid 2>/dev/null; rm -rf "$tmp"' EXIT
# Readiness: weston creates its socket once it listens.
i=0
while [ ! -S "$tmp/fw-missing" ]; do
	if ! kill -0 $weston_pid 2>/dev/null || [ $i -ge 200 ]; then
		echo "weston did not start: skipping" >&2
		exit 77
	fi
	i=$((i + 1))
	sleep 0.05
done
WAYLAND_DISPLAY=fw-missing "$echo_client" --duration 1 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ]; then
	echo "FAIL: fairway-echo succeeded without a virtual pointer" >&2
	exit 1
fi
if ! grep -q 'compositor lacks zwlr_virtual_pointer_manager_v1' "$tmp/err"; then
	echo "FAIL: no clear message; stderr was:" >&2
	cat "$tmp/err" >&2
	exit 1
fi
exit 0
