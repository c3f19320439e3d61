#!/bin/sh
# hints-x-recycle.sh root|cap|user: an X client's pid handed to a process
# that is no client of fairway's is never hinted. X-Resource reports the pid
# an X client's socket peer had when it connected; the client forks a
# child that keeps the connection, exits, and its pid goes to a victim:
#
# 1. early: the fork before the window, the pid recycled before fairway
#    learns it: a root sleep, then a sleep of fairway's own uid that holds
#    no X connection. fairway must see that neither is an X client.
# 2. late: the window first, so fairway learns the pid while the client
#    still holds it, then the fork and the recycle to a root sleep.
#    fairway must have pinned the process it learnt of, not the number.
#
# Each victim's attributes stay as they were once fairway has classed the
# window interactive twice (its hints went out by then), or has said why
# it will not hint it. The whole test runs in a pid namespace of its own,
# where ns_last_pid hands a pid to the victim at once, as the attack did,
# and with fairway deployed as the argument says (lib-hints.sh fw_deploy).
if [ -z "${FW_PIDNS:-}" ] && [ "$(id -u)" = 0 ] &&
	unshare --pid --fork --mount-proc true 2>/dev/null; then
	FW_PIDNS=1 exec unshare --pid --fork --mount-proc --kill-child "$0" "$@"
fi
. "$(dirname "$0")/lib-hints.sh"
: "${FW_X_FORK:?set FW_X_FORK to the fw-x-fork binary}"
need_prog grim
[ -n "${FW_PIDNS:-}" ] || skip "needs root and unshare for a pid namespace"
[ -w /proc/sys/kernel/ns_last_pid ] || skip "no ns_last_pid here"

# X sockets of this namespace's own, which fairway's user may make.
[ -d /tmp/.X11-unix ] || mkdir -m 1777 /tmp/.X11-unix
mount -t tmpfs -o mode=1777 fw-x11-unix /tmp/.X11-unix ||
	fail "cannot mount a tmpfs on /tmp/.X11-unix"

deploy=${1:-cap}
fw_deploy "$deploy"
fw_start -d
fw_deploy_check
FW_ERR="$FW_TMP/fairway-1.err"

# recycle PID AS...: a sleep on PID, run by AS... (nothing: root); sets
# VICTIM and VICTIM_ORIG, its attributes.
recycle() {
	want=$1
	shift
	echo $((want - 1)) >/proc/sys/kernel/ns_last_pid ||
		fail "cannot write ns_last_pid"
	start_bg "$@" sleep 600
	[ "$BG_PID" = "$want" ] || fail "the sleep got pid $BG_PID, not $want"
	VICTIM=$BG_PID
	wait_until 10 "the victim running" all_threads "$VICTIM" .
	VICTIM_ORIG=$(attrs "$VICTIM" | tr '\n' ';')
	log "pid $want now: $(ps -o user=,comm= -p "$VICTIM") ($VICTIM_ORIG)"
}

# x_client NAME MODE COLOR: starts fw-x-fork as fairway's user, with fd 3
# to its stdin; sets XC_OUT and XC_PARENT, the process that connected.
x_client() {
	XC_OUT="$FW_TMP/$1.out"
	XC_NAME=$1
	fifo="$FW_TMP/$1.fifo"
	mkfifo "$fifo"
	start_bg sh -c 'exec $0 "$1" "$2" "$3" <"$4" >"$5" 2>&1' "$FW_AS" \
		"$FW_X_FORK" "$2" "$3" "$fifo" "$XC_OUT"
	XC_PARENT=$BG_PID
	exec 3>"$fifo"
	wait_until 20 "$1 connected" has_line "$XC_OUT" '^parent '
	[ "$(sed -n 's/^parent //p' "$XC_OUT")" = "$XC_PARENT" ] ||
		fail "$1 connected from $(sed -n 's/^parent //p' "$XC_OUT"), not $XC_PARENT"
}

# x_forked: waits for the child that keeps the connection, and reaps the
# parent, so that its pid is free; sets XC_CHILD.
x_forked() {
	wait_until 20 "$XC_NAME's child" has_line "$XC_OUT" '^child '
	XC_CHILD=$(sed -n 's/^child //p' "$XC_OUT")
	wait "$XC_PARENT" 2>/dev/null
	alive "$XC_PARENT" && fail "$XC_NAME's parent $XC_PARENT still runs"
}

# What fairway says once it decided about an X client's pid: classed
# interactive at two updates (its hints are out), or refused.
decided() {
	FW_SEEN="$(grep -c "ratings: pid $1 .*: interactive" "$FW_ERR") updates"
	[ "$(grep -c "ratings: pid $1 .*: interactive" "$FW_ERR")" -ge 2 ] ||
		grep -q "X client pid $1 .*not pinned" "$FW_ERR"
}

# point_at NAME COLOR PID: the pointer into the window of COLOR, until
# fairway decided about PID.
point_at() {
	wait_color 30 "$2" 1000
	set -- "$1" "$2" "$3" $BBOX
	x=$(($4 + $6 / 2))
	y=$(($5 + $7 / 2))
	"$FW_TEST_POINTER" move "$x" "$y" move $((x + 5)) $((y + 5)) ||
		fail "fw-test-pointer failed"
	wait_until 30 "fairway to decide about $1's pid $3" decided "$3"
	grep "X client pid $3 " "$FW_ERR" | head -n 1 | sed 's/^/# fairway: /'
}

untouched() {
	same_attrs "$VICTIM" "$VICTIM_ORIG" ||
		fail "$1: the victim on pid $VICTIM was hinted: $FW_SEEN (was $VICTIM_ORIG)"
	log "$1: the victim on pid $VICTIM is untouched"
}

# 1. early, root's sleep on the pid.
x_client early-root early 33cc99
x_forked
recycle "$XC_PARENT"
echo go >&3
wait_until 20 "the early window mapped" has_line "$XC_OUT" '^mapped'
point_at early-root 33cc99 "$XC_PARENT"
untouched "early, root's process"
stop_pid "$VICTIM"
exec 3>&-

# 1b. early, a sleep of fairway's uid that is no X client.
x_client early-same early cc3399
x_forked
recycle "$XC_PARENT" $FW_AS
echo go >&3
wait_until 20 "the second early window mapped" has_line "$XC_OUT" '^mapped'
point_at early-same cc3399 "$XC_PARENT"
untouched "early, fairway's uid without an X connection"
stop_pid "$VICTIM"
exec 3>&-

# 2. late: fairway learns the pid while the client holds it: its window
# is on screen (wlroots asks X-Resource as the window is made, before it
# announces it) before the fork.
x_client late late 9933cc
wait_until 20 "the late window mapped" has_line "$XC_OUT" '^mapped'
wait_color 30 9933cc 1000
echo fork >&3
x_forked
recycle "$XC_PARENT"
point_at late 9933cc "$XC_PARENT"
untouched "late, root's process"
exec 3>&-
pass
