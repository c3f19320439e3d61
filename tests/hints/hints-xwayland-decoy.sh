#!/bin/sh
# fairway's Xwayland is the process at the other end of the socket wlroots
# made for it, never one found by its name. A decoy of another uid, named
# Xwayland and serving the same display, started before the real one (so
# it has the lower pid): the Xwayland boost of an X client with input goes
# to the real Xwayland, not the decoy; and when a hung (stopped) Xwayland
# is killed at shutdown, the real one is, not the decoy.
. "$(dirname "$0")/lib-hints.sh"
need_privilege
need_prog xterm
need_prog xdotool
need_prog setpriv
need_prog bash
[ "$(id -u)" = 0 ] || skip "needs root to run the decoy as another user"

fw_start -d
FW_ERR="$FW_TMP/fairway-1.err"
# argv: Xwayland -c 'sleep 600; :' :N, as nobody.
start_bg setpriv --reuid nobody --regid nogroup --clear-groups \
	bash -c 'exec -a Xwayland bash -c "sleep 600; :" "$0"' "$DISPLAY" \
	</dev/null >/dev/null 2>&1
decoy=$BG_PID
decoy_cmdline() {
	FW_SEEN=$(tr '\0' ' ' <"/proc/$decoy/cmdline" 2>/dev/null)
	[ "$FW_SEEN" = "Xwayland -c sleep 600; : $DISPLAY " ]
}
wait_until 10 "the decoy named Xwayland" decoy_cmdline
log "decoy $decoy (uid nobody): $FW_SEEN"
decoy_orig=$(attrs "$decoy" | tr '\n' ';')
# Its sleep is stopped with it.
wait_until 10 "the decoy's sleep" pgrep -P "$decoy" sleep
FW_HELPERS="$FW_HELPERS $(pgrep -P "$decoy" sleep)"

# Xwayland starts with the first X client.
start_bg xterm -T fw-xterm -e sh -c 'read line' >"$FW_TMP/xterm.out" 2>&1
xterm=$BG_PID
wait_until 30 "the xterm mapped and focused" x_focused fw-xterm
# Two updates with the xterm interactive: Xwayland's class went out.
classed_twice() {
	[ "$(grep -c "ratings: pid $xterm .*: interactive" "$FW_ERR")" -ge 2 ]
}
xwayland=""
for p in $(pgrep -x -u root Xwayland); do
	tr '\0' '\n' <"/proc/$p/cmdline" | grep -qx "$DISPLAY" && xwayland=$p
done
[ -n "$xwayland" ] || fail "no root Xwayland for $DISPLAY"
[ "$decoy" -lt "$xwayland" ] || skip "pids wrapped: decoy $decoy, Xwayland $xwayland"
log "Xwayland $xwayland"

"$FW_TEST_POINTER" move 100 100 move 110 110 || fail "fw-test-pointer failed"
wait_until 20 "interactive attributes on the xterm ($xterm)" \
	all_threads "$xterm" "^$INTERACTIVE"
wait_until 20 "fairway to class Xwayland's clients interactive twice" \
	classed_twice
same_attrs "$decoy" "$decoy_orig" || fail "the decoy was hinted: $FW_SEEN"
wait_until 20 "interactive attributes on Xwayland ($xwayland)" \
	all_threads "$xwayland" "^$INTERACTIVE"
log "the real Xwayland is hinted, the decoy is not"

# A hung Xwayland at shutdown: fairway kills it after a second.
kill -STOP "$xwayland"
fw_stop
[ "$FW_STATUS" -eq 0 ] || fail "fairway exited $FW_STATUS"
alive "$decoy" || fail "the decoy was killed"
same_attrs "$decoy" "$decoy_orig" || fail "the decoy was hinted: $FW_SEEN"
gone() {
	! alive "$xwayland"
}
wait_until 10 "the stopped Xwayland killed" gone
has_line "$FW_ERR" "Xwayland (pid $xwayland) still ran 1 s after its hang-up: killed it" ||
	fail "no log line for the kill of Xwayland $xwayland"
pass
