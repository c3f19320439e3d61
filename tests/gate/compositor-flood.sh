#!/bin/sh
# Four plaid flooders committing full-damage buffers without waiting for
# frame callbacks, and a probe timing roundtrips, in fairway with the
# scheduler on: the probe keeps being served and every flooder keeps making
# progress. Only generous bounds: the numbers belong to bench/.
set -eu
: "${FAIRWAY:?}" "${PLAID:?}" "${PROBE:?}"
mode=${1:-commit}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 700 "$tmp"
export XDG_RUNTIME_DIR="$tmp"
export WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1
unset WAYLAND_DISPLAY DISPLAY

timeout 60 "$FAIRWAY" --backend headless --no-xwayland --trace "$tmp/trace" -- sh -c '
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
# 4 s at one roundtrip per 10 ms is 400 when idle; starved would be ~0.
assert probe["count"] >= 40, "the probe was starved: %s" % probe
assert probe["p99"] < 1000, "probe p99 %.1f ms" % probe["p99"]
for i in range(1, 5):
    plaid = last_json("%s/plaid%d" % (tmp, i))
    print("plaid%d:" % i, plaid)
    assert plaid["requests"] > 0, "flooder %d made no progress" % i
# The trace shows why: the flooders sank below base, the probe did not.
records = [json.loads(line) for line in open(tmp + "/trace")]
last = {}
for r in records:
    last[r["pid"]] = r
assert len(last) >= 5, "trace has %d clients" % len(last)
probe_rec = min(last.values(), key=lambda r: r["requests"])
flooders = [r for r in last.values() if r is not probe_rec]
print("probe in trace:", probe_rec)
assert probe_rec["priority"] == 0, "the probe ended below base"
assert probe_rec["expired"] * 10 < sum(r["expired"] for r in flooders), \
    "the probe lost about as many points as the flooders"
# Commits are cheap for fairway, and plaid waits for its buffers between
# them: that flood never keeps fairway busy, so nobody has to sink.
if mode != "commit":
    assert min(r["priority"] for r in records if r["pid"] != probe_rec["pid"]) < 0, \
        "no flooder ever lost priority"
    assert sum(r["expired"] for r in flooders) > 0
PY
