#!/usr/bin/env python3
"""fairway-trace-summary's rules on synthetic traces (the format of
scheduler/trace/trace.h): what counts as a round trip, how long a client was
blocked, queued and idle, and the startup window."""
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

TOOL = os.environ.get("FW_TRACE_SUMMARY") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients",
    "tools", "fairway-trace-summary")


def load_tool():
    loader = importlib.machinery.SourceFileLoader("trace_summary", TOOL)
    spec = importlib.util.spec_from_loader("trace_summary", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


tool = load_tool()
failures = []


def check(name, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + name + (": " + str(detail)
        if not cond else ""))
    if not cond:
        failures.append(name)


def near(a, b):
    return a is not None and abs(a - b) < 1e-6


START = {"t": 0, "pid": 100, "dir": "start", "version": 2, "gated": True,
    "monotonic": 500.0}


def rec(t, d, **kw):
    r = {"t": t, "pid": 42, "client": 1, "dir": d}
    r.update(kw)
    return r


def req(t, obj=1, op=0, size=12):
    return rec(t, "request", object=obj, opcode=op, size=size)


def ev(t, obj, op=0, size=12):
    return rec(t, "event", object=obj, opcode=op, size=size)


def reply(t, seq, obj, request="wl_display.sync", op=0):
    return rec(t, "reply", seq=seq, object=obj, opcode=op, request=request,
        interface="wl_callback")


def summary(records, **kw):
    rows = tool.summarize(iter(records), **kw)
    assert len(rows) == 1, rows
    return rows[0]


# A sync round trip: sync read at 1.000, forwarded at 1.001, answered
# (queued) at 1.0015 and sent at 1.002; the client sends again at 1.010.
sync_trip = [START, rec(0.5, "connect", comm="app"),
    req(1.000), rec(1.001, "forward", messages=1, bytes=12),
    reply(1.0015, 1, 3), ev(1.002, 3), ev(1.002, 1, op=1),
    req(1.010, obj=5, op=2), rec(1.0105, "forward", messages=1, bytes=12),
    rec(2.5, "disconnect")]
s = summary(sync_trip)
check("sync: one round trip", s["roundtrips"] == 1, s)
check("sync: named by its request",
    s["roundtrip_requests"] == {"wl_display.sync": 1}, s)
check("sync: blocked from read to answer sent", near(s["blocked_ms"], 2.0),
    s["blocked_ms"])
check("sync: queued while read and not forwarded",
    near(s["queued_ms"], 1.5), s["queued_ms"])
check("sync: queue delay per request",
    s["queue_delay_ms"]["count"] == 2 and near(s["queue_delay_ms"]["max"],
        1.0), s["queue_delay_ms"])
check("sync: window from connect to disconnect",
    near(s["window_ms"], 2000.0), s["window_ms"])
# Idle: the window less the union of blocked (1.000-1.002) and queued
# (1.000-1.001, 1.010-1.0105) spans.
check("idle: window less blocked and queued time",
    near(s["idle_ms"], 2000.0 - 2.0 - 0.5), s["idle_ms"])
check("counts: messages and bytes",
    (s["requests"], s["events"], s["request_bytes"]) == (2, 2, 24), s)

# Pipelined: the client sent a commit after the sync and before the
# answer went out, so it was not waiting: no round trip, nothing blocked.
pipelined = [START, rec(0.5, "connect", comm="app"),
    req(1.000), req(1.0005, obj=5, op=6),
    rec(1.001, "forward", messages=2, bytes=24),
    reply(1.0012, 1, 3), ev(1.002, 3),
    req(1.003), rec(1.0031, "forward", messages=1, bytes=12),
    req(1.0032, obj=5, op=6),
    reply(1.0035, 3, 4), ev(1.004, 4), rec(2.0, "disconnect")]
s = summary(pipelined)
check("pipelined: no round trip", s["roundtrips"] == 0, s)
check("pipelined: nothing blocked", near(s["blocked_ms"], 0.0), s)

# Answers to two objects one request created: one round trip, not two.
two_answers = [START, rec(0.5, "connect"), req(1.0, obj=2, op=0, size=40),
    rec(1.0001, "forward", messages=1, bytes=40),
    reply(1.0002, 1, 7, request="wl_registry.bind", op=0),
    reply(1.0003, 1, 8, request="wl_registry.bind", op=0),
    ev(1.0004, 7), ev(1.0005, 8), rec(2.0, "disconnect")]
s = summary(two_answers)
check("one request counts once", s["roundtrips"] == 1, s)
check("blocked until the first answer went out",
    near(s["blocked_ms"], 0.4), s["blocked_ms"])

# An event with no reply record (a frame callback's done, a configure) is
# no answer: waiting for it is idle time.
frame_wait = [START, rec(0.5, "connect"), req(1.0, obj=5, op=3),
    req(1.0001, obj=5, op=6), rec(1.0002, "forward", messages=2, bytes=24),
    ev(1.016, 9), ev(1.016, 1, op=1), req(1.017, obj=5, op=3),
    rec(1.0171, "forward", messages=1, bytes=12), rec(2.0, "disconnect")]
s = summary(frame_wait)
check("frame callback: no round trip", s["roundtrips"] == 0, s)
check("frame callback: its wait is idle",
    near(s["idle_ms"], 1500.0 - 0.2 - 0.1), s["idle_ms"])

# Held back while sending: the gate stopped reading at the cap.
held = [START, rec(0.5, "connect"), req(1.0),
    rec(1.0, "queues", requests_full=True, events_waiting=False),
    rec(1.5, "queues", requests_full=False, events_waiting=True),
    rec(1.5, "forward", messages=1, bytes=12),
    rec(1.7, "queues", requests_full=False, events_waiting=False),
    rec(2.0, "disconnect")]
s = summary(held)
check("send blocked while at the cap", near(s["send_blocked_ms"], 500.0), s)
check("events waiting on a full socket",
    near(s["events_waiting_ms"], 200.0), s)
check("idle outside queued, blocked and waiting spans",
    near(s["idle_ms"], 1500.0 - 700.0), s["idle_ms"])

# Without the gate: requests timed when libwayland ran them, no queue.
off = [dict(START, gated=False), rec(0.5, "connect"), req(1.000),
    reply(1.0001, 1, 3), ev(1.0004, 3), req(1.001, obj=5, op=2),
    rec(2.0, "disconnect")]
s = summary(off)
check("ungated: the round trip counts", s["roundtrips"] == 1, s)
check("ungated: blocked", near(s["blocked_ms"], 0.4), s["blocked_ms"])
check("ungated: no queue measured",
    s["queued_ms"] is None and s["send_blocked_ms"] is None, s)

# Startup: from the launch (monotonic 500.3 = trace 0.3) to the first
# presented frame; what comes after is left out.
startup = [START, rec(0.5, "connect", comm="app"), req(1.0),
    rec(1.0, "forward", messages=1, bytes=12), reply(1.0, 1, 3),
    ev(1.001, 3), rec(1.2, "presented", surface=3), req(1.3),
    rec(1.3, "forward", messages=1, bytes=12), reply(1.3, 2, 4),
    ev(1.301, 4), rec(2.0, "disconnect")]
s = summary(startup, startup=True, launched=0.3)
check("startup: from launch to first presented",
    near(s["startup_ms"], 900.0), s)
check("startup: round trips before the frame only", s["roundtrips"] == 1, s)
check("startup: idle within the window",
    near(s["idle_ms"], 700.0 - 1.0), s["idle_ms"])
s = summary(startup, startup=True)
check("startup: from the connection without --launched",
    near(s["startup_ms"], 700.0), s)

# Two connections of one process are two clients.
two = [START, rec(0.1, "connect"), dict(rec(0.2, "connect"), client=2),
    req(1.0), dict(req(1.0), client=2),
    rec(1.0, "forward", messages=1, bytes=12),
    dict(rec(1.0, "forward", messages=1, bytes=12), client=2),
    reply(1.0, 1, 3), dict(reply(1.0, 1, 3), client=2), ev(1.001, 3),
    dict(req(1.0005, obj=5), client=2), dict(ev(1.002, 3), client=2)]
rows = tool.summarize(iter(two))
check("two connections, one pid", [r["client"] for r in rows] == [1, 2],
    rows)
check("each connection's own rule",
    [r["roundtrips"] for r in rows] == [1, 0], rows)

# A version 1 trace (no start record, no client, no reply records): the
# queue is still measured, round trips are unknown rather than 0.
v1 = [{"t": 1.0, "pid": 7, "dir": "request", "object": 1, "opcode": 0,
    "size": 12}, {"t": 1.002, "pid": 7, "dir": "forward", "messages": 1,
    "bytes": 12}, {"t": 1.003, "pid": 7, "dir": "event", "object": 3,
    "opcode": 0, "size": 12}]
s = summary(v1)
check("version 1: round trips unknown", s["roundtrips"] is None, s)
check("version 1: queue measured", near(s["queued_ms"], 2.0), s)

# The command line: JSON lines, a bad flag, a malformed record.
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "trace")
    with open(path, "w") as f:
        for r in sync_trip:
            f.write(json.dumps(r) + "\n")
    out = subprocess.run([sys.executable, TOOL, "--json", path],
        capture_output=True, text=True)
    rows = [json.loads(l) for l in out.stdout.splitlines()]
    check("cli: --json prints one object per client",
        out.returncode == 0 and len(rows) == 1 and rows[0]["pid"] == 42
        and rows[0]["roundtrips"] == 1, out)
    out = subprocess.run([sys.executable, TOOL, "--json", "--startup",
        "--launched", "500.6", path], capture_output=True, text=True)
    check("cli: --launched is read on the trace's clock",
        out.returncode == 0 and json.loads(out.stdout)["startup_ms"] is None
        and near(json.loads(out.stdout)["window_ms"], 1900.0), out)
    out = subprocess.run([sys.executable, TOOL, "--launched", "1", path],
        capture_output=True, text=True)
    check("cli: --launched without --startup exits 2",
        out.returncode == 2 and "usage" in out.stderr, out)
    with open(path, "a") as f:
        f.write("{not json\n")
    out = subprocess.run([sys.executable, TOOL, path], capture_output=True,
        text=True)
    check("cli: a bad record names its line",
        out.returncode != 0 and ":11: not a trace record" in out.stderr, out)

if failures:
    print("%d check(s) failed: %s" % (len(failures), ", ".join(failures)))
    sys.exit(1)
print("all checks passed")
