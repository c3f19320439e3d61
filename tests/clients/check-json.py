#!/usr/bin/env python3
"""Checks the JSON line a fairway client printed last.

usage: check-json.py KIND FILE [key=value ...]
KIND is plaid, echo, follow, anim, probe or stress; key=value pairs are
expectations on top-level fields (compared as strings).
"""
import json
import math
import sys

SUMMARY_KEYS = {"count", "mean", "p50", "p90", "p99", "max"}


def fail(msg):
    print("check-json: " + msg, file=sys.stderr)
    sys.exit(1)


def check_summary(obj, key, stddev=False, need_samples=True):
    s = obj.get(key)
    if not isinstance(s, dict):
        fail(f"{key} is not an object: {s!r}")
    want = SUMMARY_KEYS | ({"stddev"} if stddev else set())
    if set(s) != want:
        fail(f"{key} has keys {sorted(s)}, want {sorted(want)}")
    count = s["count"]
    if not isinstance(count, int) or count < 0:
        fail(f"{key}.count is {count!r}")
    if count == 0:
        if need_samples:
            fail(f"{key} has no samples")
        if any(s[k] is not None for k in want - {"count"}):
            fail(f"{key} has values without samples: {s}")
        return s
    for k in want - {"count"}:
        v = s[k]
        if not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
            fail(f"{key}.{k} is {v!r}")
    if not (s["p50"] <= s["p90"] <= s["p99"] <= s["max"]):
        fail(f"{key} percentiles out of order: {s}")
    if s["mean"] > s["max"] + 1e-3:
        fail(f"{key}.mean above max: {s}")
    # Latencies in a headless run are far below a minute.
    if s["max"] > 60000:
        fail(f"{key}.max is {s['max']} ms")
    return s


def number(obj, key, minimum=None):
    v = obj.get(key)
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        fail(f"{key} is not a number: {v!r}")
    if minimum is not None and not v > minimum:
        fail(f"{key} is {v}, want > {minimum}")
    return v


def main():
    if len(sys.argv) < 3:
        fail("usage: check-json.py KIND FILE [key=value ...]")
    kind, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        lines = [l for l in f.read().splitlines() if l.strip()]
    if not lines:
        fail(f"{path} is empty")
    try:
        obj = json.loads(lines[-1])
    except json.JSONDecodeError as e:
        fail(f"last line is not JSON ({e}): {lines[-1]!r}")
    if not isinstance(obj, dict):
        fail("last line is not a JSON object")
    if obj.get("client") != kind:
        fail(f"client is {obj.get('client')!r}, want {kind!r}")
    for pair in sys.argv[3:]:
        k, _, v = pair.partition("=")
        if str(obj.get(k)) != v:
            fail(f"{k} is {obj.get(k)!r}, want {v}")

    if kind == "plaid":
        if obj.get("mode") not in ("commit", "requests", "churn", "sync",
                                   "damage", "damage-only"):
            fail(f"mode is {obj.get('mode')!r}")
        requests = number(obj, "requests", 0)
        commits = number(obj, "commits")
        seconds = number(obj, "seconds", 1.0)
        rate = number(obj, "rate", 0)
        if obj["mode"] in ("commit", "damage") and commits <= 0:
            fail("no commits in a drawing mode")
        if obj["mode"] == "damage-only" and (commits != 0 or requests <= 0):
            fail(f"damage-only sent {commits} commits, {requests} requests")
        if abs(rate - requests / seconds) > 0.01 * rate + 1:
            fail(f"rate {rate} is not requests/seconds")
        if obj["mode"] == "commit" and requests != 3 * commits:
            fail(f"{requests} requests for {commits} commits, want 3 each")
    elif kind == "echo":
        check_summary(obj, "receipt_ms")
        # Only echo_ms's shape is checked: it is empty on a compositor that
        # reports no frame presented (sway 1.7 on wlroots 0.15 headless),
        # though fairway reports them.
        check_summary(obj, "echo_ms", need_samples=False)
        missed = number(obj, "missed")
        generated = number(obj, "generated", 0)
        if missed > generated / 2:
            fail(f"{missed} of {generated} motions missed")
    elif kind == "follow":
        check_summary(obj, "receipt_ms")
        # It draws only on frame callbacks: each presented frame it drew
        # shows motions, timed from generation and from their timestamp.
        frames = number(obj, "frames", 0)
        echo = check_summary(obj, "echo_ms")
        check_summary(obj, "event_ms")
        check_summary(obj, "draw_ms")
        cost = check_summary(obj, "cost_ms")
        # The default cost is 0.3-3 ms of CPU a frame. Only the median is
        # held to it: the thread's CPU clock also counts the kernel's work
        # on its behalf and, in a virtual machine, time the host took
        # (one frame measured 11 ms under ASan).
        if not (0.3 <= cost["p50"] <= 3):
            fail(f"median frame cost out of 0.3-3 ms: {cost}")
        if number(obj, "draws") < frames:
            fail(f"{frames} frames presented from {obj['draws']} draws")
        if echo["count"] < frames:
            fail(f"{echo['count']} echoes in {frames} frames")
        missed = number(obj, "missed")
        generated = number(obj, "generated", 0)
        if missed > generated / 2:
            fail(f"{missed} of {generated} motions missed")
    elif kind == "anim":
        number(obj, "frames", 0)
        number(obj, "fps", 20)
        check_summary(obj, "interval_ms", stddev=True)
        check_summary(obj, "draw_ms")
        # Drawn in a child: its pid, and the setsid() child's, are others'.
        if obj.get("draw_in") == "child":
            pid = number(obj, "drawer_pid", 1)
            if obj.get("setsid_pid") in (0, pid):
                fail(f"setsid child {obj.get('setsid_pid')!r}, drawer {pid}")
    elif kind == "probe":
        s = check_summary(obj, "roundtrip_ms")
        if s["count"] < 20:
            fail(f"only {s['count']} round trips")
    elif kind == "stress":
        workers = number(obj, "workers", 0)
        work = obj.get("work")
        if not isinstance(work, list) or len(work) != workers:
            fail(f"work is {work!r} for {workers} workers")
        if any(not isinstance(w, int) or w <= 0 for w in work):
            fail(f"a worker did no work: {work}")
        number(obj, "seconds", 1.0)
    else:
        fail(f"unknown kind {kind}")
    print(lines[-1])


main()
