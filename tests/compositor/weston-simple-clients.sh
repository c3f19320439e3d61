#!/bin/sh
# weston-simple-shm and weston-simple-damage run 10 s each without aborting
# (sway 1.7 and cage make them die with "Both buffers busy at redraw()").
. "$(dirname "$0")/lib.sh"
need_prog weston-simple-shm
need_prog weston-simple-damage

fw_start --no-xwayland
for client in weston-simple-shm weston-simple-damage; do
	timeout 10 "$client" >"$FW_TMP/$client.out" 2>"$FW_TMP/$client.err"
	status=$?
	# 124: timeout had to stop it, so it was still running after 10 s.
	[ $status -eq 124 ] || fail "$client exited $status within 10 s, want 124 (still running)"
	if grep -q "Both buffers busy" "$FW_TMP/$client.err"; then
		fail "$client: $(grep -m 1 "Both buffers busy" "$FW_TMP/$client.err")"
	fi
	alive "$FW_PID" || fail "fairway died while $client ran"
	log "$client ran 10 s"
done
pass
