#!/bin/sh
# Hints reach only the process that connected, as fairway pinned it when it
# accepted the connection: a process of the uid that connected, started
# before the accept (scheduler/process/peer.h).
#
# 1. Control: a client of uid nobody that connected itself is hinted.
# 2. A client execs a setuid program that keeps the connection: same pid,
#    but its effective uid is root's now. It is not hinted.
# 3. A client forks, hands the connection to its child and exits; its pid
#    goes to another user's (root's) process. Neither that process nor
#    the child, which started after the accept, is hinted.
. "$(dirname "$0")/lib-hints.sh"
need_privilege
need_prog setpriv
[ "$(id -u)" = 0 ] || skip "needs root to run clients as another user"
: "${FW_HANDOVER:?}"

chmod 711 "$FW_TMP"
fw_start --no-xwayland -d
chmod 755 "$XDG_RUNTIME_DIR"
chmod 777 "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY"
FW_ERR="$FW_TMP/fairway-1.err"

# handover NAME MODE PROGRAM: fw-handover as nobody, PROGRAM a hint client
# fed from a fifo on fd 3 (hint_client_send). Sets HO_PID (the process
# that connected) and HO_OUT.
handover() {
	HO_OUT="$FW_TMP/$1.out"
	fifo="$FW_TMP/$1.fifo"
	mkfifo "$fifo"
	start_bg sh -c 'exec setpriv --reuid nobody --regid nogroup \
		--clear-groups nice -n 3 "$0" "$1" "$2" 1 <"$3" >"$4"' \
		"$FW_HANDOVER" "$2" "$3" "$fifo" "$HO_OUT"
	HO_PID=$BG_PID
	exec 3>"$fifo"
	wait_until 20 "$1 ready" has_line "$HO_OUT" '^ready'
	[ "$(sed -n 's/^connected //p' "$HO_OUT")" = "$HO_PID" ] ||
		fail "$1: connected from $(sed -n 's/^connected //p' "$HO_OUT"), not $HO_PID"
}

classed() {
	FW_SEEN="$(grep -c "ratings: pid $1 .*: interactive" "$FW_ERR") updates"
	[ "$(grep -c "ratings: pid $1 .*: interactive" "$FW_ERR")" -ge "$2" ]
}

# Updates in which fairway saw pid $1 at all.
seen() {
	[ "$(grep -c "ratings: pid $1 " "$FW_ERR")" -ge "$2" ]
}

# point_at NAME PID: maps the window and moves the pointer into it, then
# waits until fairway has classed PID interactive at two updates in a row:
# whatever hints it was to get, it has been given by then.
point_at() {
	hint_client_send connect
	wait_until 20 "the $1 window" has_line "$HO_OUT" '^mapped'
	"$FW_TEST_POINTER" move 640 360 move 650 370 || fail "fw-test-pointer failed"
	wait_until 20 "fairway to class pid $2 interactive" classed "$2" 2
}


finish_client() {
	hint_client_send disconnect
	exec 3>&-
	wait_until 20 "the $1 client's hang-up" has_line "$HO_OUT" '^disconnected'
}

# 1. Control. It stays connected: its lines in fairway's log mark each
# update, which step 3 starts right after.
handover plain exec "$FW_HINT_CLIENT"
plain=$HO_PID
exec 4>&3
point_at plain "$plain"
wait_until 20 "interactive attributes on the plain client" \
	all_threads "$plain" "^$INTERACTIVE"
log "control: a client of nobody's is hinted"

# 2. exec of a setuid program.
mkdir -m 755 "$FW_TMP/suid"
cp "$FW_HINT_CLIENT" "$FW_TMP/suid/fw-hint-client"
chmod 4755 "$FW_TMP/suid/fw-hint-client"
handover setuid exec "$FW_TMP/suid/fw-hint-client"
uids=$(sed -n 's/^Uid:[[:space:]]*//p' "/proc/$HO_PID/status" | cut -f1-3)
case "$uids" in
"65534	0	0") ;;
*) skip "setuid is not honoured here (uids $uids)" ;;
esac
orig=$(attrs "$HO_PID" | tr '\n' ';')
point_at setuid "$HO_PID"
same_attrs "$HO_PID" "$orig" ||
	fail "the setuid program (uids $uids) was hinted: $FW_SEEN"
finish_client setuid
log "a setuid program on the connection: not hinted"

# 3. fork, hand over, exit; the pid goes to a root process. All of it
# right after an update, before the next one could see the client.
updates=$(grep -c "ratings: pid $plain " "$FW_ERR")
wait_until 10 "the next update" seen "$plain" $((updates + 1))
handover fork fork "$FW_HINT_CLIENT"
# It exits right after the fork: wait for it, and reap it, at once.
wait "$HO_PID" 2>/dev/null
child=$(sed -n 's/^child //p' "$HO_OUT")
victim=""
for try in $(seq 1 50); do
	echo $((HO_PID - 1)) >/proc/sys/kernel/ns_last_pid 2>/dev/null || break
	sleep 600 &
	if [ "$!" = "$HO_PID" ]; then
		victim=$!
		FW_HELPERS="$FW_HELPERS $victim"
		break
	fi
	kill "$!"
	wait "$!" 2>/dev/null
done
if [ -n "$victim" ]; then
	log "pid $HO_PID now a root process"
	victim_orig=$(attrs "$victim" | tr '\n' ';')
else
	log "could not hand pid $HO_PID to a new process (ns_last_pid)"
fi
child_orig=$(attrs "$child" | tr '\n' ';')
point_at fork "$HO_PID"
same_attrs "$child" "$child_orig" ||
	fail "the child, started after the accept, was hinted: $FW_SEEN"
if [ -n "$victim" ]; then
	same_attrs "$victim" "$victim_orig" ||
		fail "root's process on the recycled pid was hinted: $FW_SEEN"
fi
pass
