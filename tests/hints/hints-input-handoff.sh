#!/bin/sh
# Input passes on (Etsion, Tsafrir and Feitelson: the process with the
# most recent input comes first). Window A gets input, then window B gets
# it without pause: within the ratings window of A's input, A loses the
# interactive class and its threads their attributes, while B keeps both;
# input to A again wins them back. The output is 2560 wide, so that both
# 1280x720 windows have a part under the pointer (A at x 0, B cascaded).
. "$(dirname "$0")/lib-hints.sh"
need_privilege

stats="$FW_TMP/stats.json"
fw_start --no-xwayland --output-size 2560x720 --stats "$stats"
pointer() {
	"$FW_TEST_POINTER" --extent 2560x720 "$@" ||
		fail "fw-test-pointer failed"
}

hint_client_start a 1
a=$HC_PID
# Keep A's fifo open: the next start takes fd 3.
exec 4>&3
hint_client_send connect
wait_until 20 "window A" has_line "$HC_OUT" '^mapped'
pointer move 10 360 move 12 362
wait_until 20 "interactive attributes on A" all_threads "$a" "^$INTERACTIVE"

hint_client_start b 1
b=$HC_PID
hint_client_send connect
wait_until 20 "window B" has_line "$HC_OUT" '^mapped'

# A's last line in --stats: its class and how old its input is.
a_line() {
	grep "\"rated\":$a," "$stats" | tail -n 1
}
# B is driven; A has lost the class while its input is still in the
# ratings window (8 s), which a binary input rating would never do. Where
# A's input grew old before fairway's look (a slow machine), A is touched
# again and the look repeated.
handed_off() {
	pointer move 1200 360 move 1202 362
	FW_SEEN=$(a_line)
	age=$(printf '%s\n' "$FW_SEEN" | sed -n 's/.*"input_age_ms":\([0-9]*\).*/\1/p')
	[ -n "$age" ] || return 1
	if [ "$age" -ge 6500 ]; then
		log "A's input is ${age} ms old, still $(printf '%s' "$FW_SEEN" |
			sed -n 's/.*"class":"\([a-z]*\)".*/\1/p'): touched again"
		pointer move 10 360 move 12 362
		return 1
	fi
	case "$FW_SEEN" in
	*'"class":"interactive"'*) return 1 ;;
	esac
	return 0
}
wait_until 60 "A without the interactive class, its input in the window" \
	handed_off
log "A: $FW_SEEN"
not_interactive() {
	pointer move 1200 360
	! all_threads "$a" "^$INTERACTIVE"
}
wait_until 20 "A's threads without the interactive attributes" not_interactive
log "A's threads: $FW_SEEN"
all_threads "$b" "^$INTERACTIVE" || fail "B is not interactive: $FW_SEEN"

pointer move 10 360 move 12 362
wait_until 20 "A interactive again" all_threads "$a" "^$INTERACTIVE"
pass
