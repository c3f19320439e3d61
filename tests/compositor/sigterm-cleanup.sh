#!/bin/sh
# SIGTERM shuts fairway down cleanly: no process it started survives, and
# its Wayland and X11 sockets are gone.
. "$(dirname "$0")/lib.sh"
need_prog foot
need_prog grim

# descendants_gone PIDS...: true once none of them runs.
descendants_gone() {
	for pid in "$@"; do
		alive "$pid" && return 1
	done
	return 0
}

sockets_gone() {
	for f in "$XDG_RUNTIME_DIR"/wayland-* "$XDG_RUNTIME_DIR/$FW_SOCKET"*; do
		[ -e "$f" ] && return 1
	done
	# Tests run side by side: another fairway may take the display number
	# as soon as this one frees it. Its lock, written before its socket,
	# holds its pid; a socket counts as ours only while no other pid holds
	# the lock, and only if it is the inode this fairway had.
	if [ -n "${x_display:-}" ]; then
		lock=$(tr -d ' \n' 2>/dev/null <"/tmp/.X$x_display-lock") || lock=""
		[ -n "$lock" ] && [ "$lock" = "$x_lock" ] && return 1
		[ -z "$lock" ] && [ -n "$x_inode" ] &&
			[ "$(stat -c %i "/tmp/.X11-unix/X$x_display" 2>/dev/null)" = "$x_inode" ] &&
			return 1
	fi
	return 0
}

# note_x_display: remember this fairway's X socket and lock, if it has one.
note_x_display() {
	x_inode=""
	x_lock=""
	[ -n "${x_display:-}" ] || return 0
	x_inode=$(stat -c %i "/tmp/.X11-unix/X$x_display" 2>/dev/null) || x_inode=""
	x_lock=$(tr -d ' \n' 2>/dev/null <"/tmp/.X$x_display-lock") || x_lock=""
	[ -n "$x_inode" ] || fail "no X socket for display :$x_display while fairway runs"
}

check_shutdown() {
	what=$1
	pids=$(descendants "$(fairway_pid)")
	[ -n "$pids" ] || [ "$2" = maybe-none ] ||
		fail "$what: fairway has no child processes to check"
	log "$what: processes under fairway: $(echo $pids)"
	ps -o pid,ppid,comm -p "$(echo $pids | tr ' ' ,)" >"$FW_TMP/$what-ps.out" 2>&1
	note_x_display
	fw_stop
	log "$what: fairway exited $FW_STATUS after SIGTERM"
	# Clients lose their connection and quit; give them time on a busy box.
	i=0
	while ! descendants_gone $pids && [ $i -lt 150 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	left=""
	for pid in $pids; do
		alive "$pid" && left="$left $pid($(cat /proc/$pid/comm 2>/dev/null))"
	done
	if [ -n "$left" ]; then
		for pid in $pids; do
			stop_pid "$pid"
		done
		fail "$what: still running 30s after fairway exited:$left"
	fi
	sockets_gone || {
		ls -la "$XDG_RUNTIME_DIR" /tmp/.X11-unix 2>&1
		fail "$what: sockets left behind (X display :${x_display:-?})"
	}
	log "$what: no process or socket left"
}

# 1. The command form: the command and a foot it launched, plus Xwayland.
ready="$FW_TMP/ready"
timeout 60 "$FAIRWAY" --backend headless --socket "$FW_SOCKET" -- \
	sh -c 'foot -c /dev/null -o colors.background=ff00ff sleep 1000 \
			>"$0.foot" 2>&1 &
		echo "$WAYLAND_DISPLAY ${DISPLAY#:}" >"$0.tmp" && mv "$0.tmp" "$0"
		exec sleep 1000' \
	"$ready" >"$FW_TMP/fairway.out" 2>"$FW_TMP/fairway.err" &
FW_PID=$!
wait_until 30 "the command to start" test -s "$ready"
read -r WAYLAND_DISPLAY x_display <"$ready"
export WAYLAND_DISPLAY
x_display=${x_display%%.*}
# foot is up once its window shows; fairway's children are then all there.
wait_color 30 ff00ff 10000
# Make Xwayland start if it is lazy, so its shutdown is covered too.
[ -n "$x_display" ] && command -v xdpyinfo >/dev/null &&
	DISPLAY=":$x_display" timeout 20 xdpyinfo >/dev/null 2>&1
check_shutdown command-form some

# 2. The plain form, with clients the test started itself.
fw_start
x_display=${DISPLAY#:}
x_display=${x_display%%.*}
command -v xdpyinfo >/dev/null && timeout 20 xdpyinfo >/dev/null 2>&1
start_bg "$FW_TEST_CLIENT" --duration 100 >"$FW_TMP/client.out" 2>&1
wait_until 30 "the test client to map" has_line "$FW_TMP/client.out" '^mapped'
check_shutdown plain-form maybe-none
gone() {
	! alive "$1"
}
wait_until 30 "the test client to exit after fairway did" gone "$BG_PID"
pass
