#!/bin/sh
# SIGUSR1 makes fairway log every client's statistics, and --stats writes
# them: both name the connected clients by their real pids. --trace records
# their messages both ways, and the batches that carried the requests.
set -eu
. "$(dirname "$0")/../common/headless-env.sh"

# The child waits for the clients' readiness line, signals fairway (its
# parent), waits for the dump in fairway's log, then lets the clients go.
timeout 60 "$FAIRWAY" -V --backend headless --no-xwayland \
	--stats "$tmp/stats" --trace "$tmp/trace" -- sh -c '
	"$IDLE" --connections 3 --duration 30 >"$XDG_RUNTIME_DIR/idle" &
	idle=$!
	until grep -q "^ready 3" "$XDG_RUNTIME_DIR/idle"; do sleep 0.05; done
	echo $idle >"$XDG_RUNTIME_DIR/idle.pid"
	kill -USR1 $PPID
	until grep -q "stats: [0-9]* clients" "$XDG_RUNTIME_DIR/log"; do
		sleep 0.05
	done
	until grep -q "\"pid\":$idle," "$XDG_RUNTIME_DIR/stats"; do
		sleep 0.05
	done
	kill -INT $idle
	wait $idle || true
' 2>"$tmp/log" || { cat "$tmp/log" >&2; exit 1; }

python3 - "$tmp" <<'PY'
import json, re, sys
tmp = sys.argv[1]
idle_pid = int(open(tmp + "/idle.pid").read())
log = open(tmp + "/log").read()
dumped = [json.loads(m) for m in re.findall(r"stats: (\{.*\})", log)]
print("dumped:", dumped)
assert re.search(r"stats: 3 clients", log), "no dump of 3 clients in the log"
assert len(dumped) == 3 and all(r["pid"] == idle_pid for r in dumped), dumped
for r in dumped:
    # Each bound wl_compositor through the registry and made a surface.
    assert r["requests"] >= 3 and r["events"] >= 1, r
    assert r["priority"] == 0 and r["state"] == "idle", r
    assert r["voluntary_switches"] >= 1, r
records = [json.loads(line) for line in open(tmp + "/stats")]
assert any(r.get("pid") == idle_pid for r in records), "--stats never named the clients"
# After the clients, one line per output: its frame timing.
outputs = [r for r in records if "output" in r]
assert outputs and outputs[-1]["output"] == "HEADLESS-1", outputs[-1:]
trace = [json.loads(line) for line in open(tmp + "/trace")]
mine = [r for r in trace if r["pid"] == idle_pid]
requests = [r for r in mine if r["dir"] == "request"]
events = [r for r in mine if r["dir"] == "event"]
forwarded = sum(r["messages"] for r in mine if r["dir"] == "forward")
print("trace: %d requests, %d forwarded, %d events" % (len(requests), forwarded, len(events)))
# Each connection asked wl_display (1) for the registry (opcode 1), and
# the registry (2) announced globals (opcode 0).
assert sum(1 for r in requests if (r["object"], r["opcode"]) == (1, 1)) == 3, requests[:5]
assert any((r["object"], r["opcode"]) == (2, 0) for r in events), events[:5]
assert forwarded == len(requests), "forwarded %d of %d" % (forwarded, len(requests))
assert all(r["size"] >= 8 and r["size"] % 4 == 0 for r in requests + events)
times = [r["t"] for r in trace]
assert times == sorted(times), "the trace goes back in time"
PY

# The summary tool reads the same trace back, per client.
"$(dirname "$0")/../../clients/tools/fairway-trace-summary" --json \
	"$tmp/trace" >"$tmp/summary"
python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
idle_pid = int(open(tmp + "/idle.pid").read())
summary = [json.loads(l) for l in open(tmp + "/summary")]
mine = [c for c in summary if c["pid"] == idle_pid]
print("summary:", mine)
# One row a connection, each with its requests' time in the queue and the
# round trip fairway-idle makes once its surface is asked for.
assert len(mine) == 3 and len({c["client"] for c in mine}) == 3, mine
for c in mine:
    assert c["requests"] >= 3 and c["roundtrips"] >= 1, c
    assert c["queue_delay_ms"]["count"] == c["requests"], c
    assert c["queue_delay_ms"]["max"] >= 0 and c["queued_ms"] >= 0, c
PY
echo "ok"
