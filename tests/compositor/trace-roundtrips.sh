#!/bin/sh
# fairway-trace-summary reads a client's round trips off a --trace, with
# the scheduler on and off: N wl_display_roundtrip calls are N round trips,
# each a wl_display.sync, with time blocked on their answers; N syncs sent
# at once (pipelined) and then awaited are one. The tool's rules in detail:
# clients/tools/fairway-trace-summary; its synthetic cases:
# tests/unit/test_trace_summary.py.
. "$(dirname "$0")/lib.sh"

: "${FW_TEST_ROUNDTRIPS:?set FW_TEST_ROUNDTRIPS to fw-test-roundtrips}"
: "${FW_TRACE_SUMMARY:=$FW_TESTS_DIR/../../clients/tools/fairway-trace-summary}"
N=7
SYNCS=50

for mode in on off; do
	trace="$FW_TMP/trace-$mode"
	fw_start --no-xwayland --scheduler "$mode" --trace "$trace"
	"$FW_TEST_ROUNDTRIPS" "$N" >"$FW_TMP/plain-$mode.out" 2>&1 &
	plain=$!
	wait "$plain" || fail "fw-test-roundtrips $N exited $? (--scheduler $mode)"
	"$FW_TEST_ROUNDTRIPS" --pipelined "$SYNCS" >"$FW_TMP/piped-$mode.out" 2>&1 &
	piped=$!
	wait "$piped" ||
		fail "fw-test-roundtrips --pipelined $SYNCS exited $? (--scheduler $mode)"
	fw_stop
	[ "$FW_STATUS" -eq 0 ] || fail "fairway exited $FW_STATUS"
	"$FW_TRACE_SUMMARY" --json "$trace" >"$FW_TMP/summary-$mode" ||
		fail "fairway-trace-summary failed on $trace"
	python3 - "$FW_TMP/summary-$mode" "$plain" "$piped" "$N" "$SYNCS" <<'PY' ||
import json, sys
path, plain, piped, n, syncs = sys.argv[1], *map(int, sys.argv[2:])
rows = {r["pid"]: r for r in map(json.loads, open(path))}
print("plain:", rows.get(plain))
print("pipelined:", rows.get(piped))
p = rows[plain]
assert p["roundtrips"] == n, "%d round trips, made %d" % (p["roundtrips"], n)
assert p["roundtrip_requests"] == {"wl_display.sync": n}, p
assert p["blocked_ms"] > 0, p
assert 0 <= p["idle_ms"] <= p["window_ms"], p
q = rows[piped]
assert q["requests"] >= syncs + 1, q
assert q["roundtrips"] == 1, "%d round trips for %d pipelined syncs" % (
    q["roundtrips"], syncs)
PY
		fail "wrong summary with --scheduler $mode (trace kept in $trace)"
done
pass
