#!/bin/sh
# SIGUSR1 makes fairway log every client's statistics, and --stats writes
# them: both name the connected clients by their real pids.
set -eu
. "$(dirname "$0")/../common/headless-env.sh"

# The child waits for the clients' readiness line, signals fairway (its
# parent), waits for the dump in fairway's log, then lets the clients go.
timeout 60 "$FAIRWAY" -V --backend headless --no-xwayland \
	--stats "$tmp/stats" -- sh -c '
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
assert any(r["pid"] == idle_pid for r in records), "--stats never named the clients"
PY
echo "ok"
