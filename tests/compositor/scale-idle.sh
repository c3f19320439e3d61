#!/bin/sh
# Five hundred idle clients: each connects and holds a surface. A probe
# must still be served beside them, and what fairway holds for each idle
# client must stay under a generous bound and within 8 % of what it holds
# with --scheduler off: the gate keeps no buffer for a client with nothing
# queued, and no record beyond its own (bench/README.md, scenario 6, has
# what each costs; a 1 KiB record more per client is past the bound).
. "$(dirname "$0")/lib.sh"
[ -n "${FW_IDLE:-}" ] && [ -n "${FW_PROBE:-}" ] || skip "built without -Dclients"
N=500

rss_kib() {
	sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$1/status"
}

# growth MODE: fairway's RSS growth (KiB) once N idle clients are in;
# the probe's round trips must be answered meanwhile.
growth() {
	fw_start --no-xwayland --scheduler "$1"
	fw=$(fairway_pid)
	before=$(rss_kib "$fw")
	out="$FW_TMP/idle-$1.out"
	start_bg "$FW_IDLE" --connections $N --duration 60 >"$out" 2>&1
	idle=$BG_PID
	wait_until 60 "$N idle clients connected" has_line "$out" "^ready $N"
	"$FW_PROBE" --duration 1 >"$FW_TMP/probe-$1.out" 2>&1 ||
		fail "the probe failed beside $N idle clients ($1)"
	count=$(sed -n 's/.*"roundtrip_ms":{"count":\([0-9]*\).*/\1/p' \
		"$FW_TMP/probe-$1.out")
	[ "${count:-0}" -gt 0 ] ||
		fail "the probe was not served ($1): $(cat "$FW_TMP/probe-$1.out")"
	after=$(rss_kib "$fw")
	GROWTH=$((after - before))
	log "$1: $N idle clients took $GROWTH KiB ($((GROWTH / N)) KiB each), probe $count round trips"
	stop_pid "$idle"
	fw_stop
}

growth on
on=$GROWTH
growth off
off=$GROWTH
if grep -q __asan_init "$FAIRWAY"; then
	# ASan's redzones and quarantine (freed buffers are held back) say
	# nothing about the memory a client costs: the probe's part stands.
	log "built with AddressSanitizer: memory bounds not checked"
	pass
fi
[ $((on / N)) -le 64 ] || fail "$((on / N)) KiB per idle client, over 64"
[ $((on * 100)) -le $((off * 108)) ] ||
	fail "the gate holds $on KiB for $N idle clients, off $off: over 108 %"
pass
