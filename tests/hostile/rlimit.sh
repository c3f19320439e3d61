#!/bin/sh
# fairway raises its own RLIMIT_NOFILE to the hard limit, and gives the
# processes it starts (the command, and Xwayland, which wlroots forks) the
# original limit and an empty signal mask back.
. "$FW_TESTS_DIR/lib.sh"

hard=$(ulimit -Hn)
ulimit -Sn 1024 2>/dev/null || skip "cannot set a soft fd limit"
[ "$hard" = unlimited ] || [ "$hard" -gt 1024 ] || skip "hard fd limit is only $hard"

soft_of() {
	awk '/^Max open files/ { print $4 }' "/proc/$1/limits"
}
sigblk_of() {
	sed -n 's/^SigBlk:[[:space:]]*//p' "/proc/$1/status"
}

fw_start
fw=$(fairway_pid)
[ "$(soft_of "$fw")" = "$(awk '/^Max open files/ { print $5 }' "/proc/$fw/limits")" ] ||
	fail "fairway's soft fd limit is $(soft_of "$fw"), not its hard limit"
log "fairway: soft fd limit $(soft_of "$fw")"

# Xwayland starts lazily, with the first X client.
need_prog xdpyinfo
timeout 30 xdpyinfo >/dev/null 2>&1 || fail "xdpyinfo could not reach $DISPLAY"
# wlroots double-forks it, so it is not our descendant: find it by display.
xw=""
for pid in $(pgrep -x Xwayland); do
	tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "^[^ ]*Xwayland $DISPLAY " &&
		xw=$pid
done
[ -n "$xw" ] || fail "no Xwayland under fairway"
# Xwayland raises its own fd limit (the X server does, for MaxClients), so
# only its signal mask tells whether our fork handler ran in it.
[ "$(sigblk_of "$xw")" = 0000000000000000 ] ||
	fail "Xwayland blocks signals: SigBlk $(sigblk_of "$xw")"
log "Xwayland $xw: no signals blocked"
fw_stop

timeout 60 "$FAIRWAY" --backend headless --socket "$FW_SOCKET" --no-xwayland -- \
	sh -c 'ulimit -Sn; sed -n "s/^SigBlk:[[:space:]]*//p" /proc/self/status' \
	>"$FW_TMP/cmd.out" 2>"$FW_TMP/cmd.err" || fail "fairway -- sh failed"
[ "$(sed -n 1p "$FW_TMP/cmd.out")" = 1024 ] ||
	fail "the command's fd limit is $(sed -n 1p "$FW_TMP/cmd.out"), want 1024"
[ "$(sed -n 2p "$FW_TMP/cmd.out")" = 0000000000000000 ] ||
	fail "the command blocks signals: $(sed -n 2p "$FW_TMP/cmd.out")"
log "the command: fd limit 1024, no signals blocked"
pass
