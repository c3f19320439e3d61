#!/bin/sh
# Four plaid flooders committing full-damage buffers without waiting for
# frame callbacks, and a probe timing roundtrips, in fairway with the
# scheduler on: the probe keeps being served and every flooder keeps making
# progress. No bound on how fast: a loaded machine slows everyone, and the
# probe's round trips under a flood are bench/'s (the roundtrip scenario,
# K flooders).
set -eu
: "${FAIRWAY:?}" "${PLAID:?}" "${PROBE:?}"
mode=${1:-commit}

. "$(dirname "$0")/../common/headless-env.sh"

timeout 60 "$FAIRWAY" --backend headless --no-xwayland --stats "$tmp/stats" -- sh -c '
	for i in 1 2 3 4; do
		"$PLAID" --mode '"$mode"' --duration 6 >"$XDG_RUNTIME_DIR/plaid$i" &
	done
	"$PROBE" --duration 4 >"$XDG_RUNTIME_DIR/probe"
	wait
' 2>"$tmp/log" || { cat "$tmp/log" >&2; exit 1; }

python3 - "$tmp" "$mode" <<'PY'
import json, sys
tmp, mode = sys.argv[1], sys.argv[2]
def last_json(path):
    with open(path) as f:
        return json.loads(f.read().strip().splitlines()[-1])
probe = last_json(tmp + "/probe")["roundtrip_ms"]
print("probe:", probe)
# 4 s at one roundtrip per 10 ms is 400 when idle; starved would be none.
assert probe["count"] > 0, "the probe was starved: %s" % probe
for i in range(1, 5):
    plaid = last_json("%s/plaid%d" % (tmp, i))
    print("plaid%d:" % i, plaid)
    assert plaid["requests"] > 0, "flooder %d made no progress" % i
# The statistics show why: the flooders sank below base, the probe did not.
# Client lines; the outputs' frame timing lines have no pid.
records = [r for r in map(json.loads, open(tmp + "/stats")) if "pid" in r]
last = {}
for r in records:
    last[r["pid"]] = r
assert len(last) >= 5, "stats have %d clients" % len(last)
probe_rec = min(last.values(), key=lambda r: r["requests"])
flooders = [r for r in last.values() if r is not probe_rec]
print("probe in stats:", probe_rec)
assert probe_rec["priority"] == 0, "the probe ended below base"
# Each roundtrip is a sync answered by a done event and a delete_id; the
# last record may come a few roundtrips before the probe's end.
assert probe_rec["events"] >= probe["count"], "probe events: %d" % probe_rec["events"]
assert probe_rec["event_bytes"] > 0 and probe_rec["request_bytes"] > 0
# Context switches come from /proc for the client's own process.
probe_switches = [r["voluntary_switches"] for r in records
                  if r["pid"] == probe_rec["pid"] and r["voluntary_switches"] >= 0]
assert probe_switches and max(probe_switches) >= probe["count"], \
    "the probe blocked %s times for %d roundtrips" % (probe_switches, probe["count"])
# Commits are cheap for fairway, and plaid waits for its buffers between
# them: that flood never keeps fairway busy, so nobody has to sink.
if mode != "commit":
    # Each whole slice used costs a point. The once-a-second records
    # rarely catch a flooder below base, as it wins the point back by
    # resting, so the count is asserted, not the level.
    assert sum(r["expired"] for r in flooders) > 0, "no flooder ever lost priority"
    # Whether their queues also filled to the cap, so that the gate stopped
    # reading them, depends on how fast they write against how fast
    # fairway serves: a loaded machine slows the flooders more.
    print("flooders throttled:", sum(r["throttled"] for r in flooders))
PY
