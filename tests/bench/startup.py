#!/usr/bin/env python3
"""Runs `bench/run startup` for foot and xterm (through XWayland), with
the scheduler on and off, against the build in $FAIRWAY_BUILD, and checks
what it wrote: each run saw the application's first frame presented (the
trace's marker) and has its summary; foot made the round trips its startup
makes; the report has its table. Speed is never asserted."""

import json
import os
import shutil
import subprocess
import sys
import tempfile


def fail(msg):
    print(f"bench-startup: FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def main():
    for prog in ("foot", "xterm", "xdpyinfo", "Xwayland"):
        if shutil.which(prog) is None:
            print(f"bench-startup: SKIP: {prog} is not installed")
            sys.exit(77)
    run = os.environ["FAIRWAY_BENCH_RUN"]
    build = os.environ["FAIRWAY_BUILD"]
    env = dict(os.environ, FWBENCH_STARTUP_APPS="foot,xterm")
    with tempfile.TemporaryDirectory(prefix="fw-bench-test-") as out:
        r = subprocess.run([sys.executable, run, "startup", "--repeat", "1",
            "--build", build, "--out", out], env=env, timeout=150)
        if r.returncode != 0:
            fail(f"bench/run exited {r.returncode}")
        with open(os.path.join(out, "startup.json")) as f:
            data = json.load(f)
        if data["compositors"] != ["fairway", "fairway-off"]:
            fail(f"compositors {data['compositors']}")
        runs = data["runs"]
        seen = sorted((r["row"], r["compositor"]) for r in runs)
        want = sorted((row, comp) for row in ("foot", "xterm (XWayland)")
            for comp in ("fairway", "fairway-off"))
        if seen != want:
            fail(f"runs {seen}")
        for rec in runs:
            where = f"{rec['row']} on {rec['compositor']}"
            if rec["error"] or rec["na"]:
                fail(f"{where}: {rec['error'] or rec['na']}")
            s = rec["clients"][0]["json"]
            print(where, json.dumps(s))
            if s["startup_ms"] is None or s["startup_ms"] <= 0:
                fail(f"{where}: no startup time")
            if s["requests"] < 1 or s["first_presented_s"] is None:
                fail(f"{where}: {s}")
            if rec["row"] == "foot":
                # foot's startup: wl_display_roundtrip for the globals,
                # and again for what they announced.
                if s["roundtrips"] < 1 or s["blocked_ms"] <= 0:
                    fail(f"{where}: round trips {s['roundtrips']}")
                if s["comm"] != "foot":
                    fail(f"{where}: the summary is {s['comm']}'s")
            gated = rec["compositor"] == "fairway"
            if (s["queued_ms"] is not None) != gated:
                fail(f"{where}: queued_ms {s['queued_ms']}")
        with open(os.path.join(out, "startup.md")) as f:
            md = f.read()
        if "| foot |" not in md or "Round trips by request" not in md:
            fail("the report lacks its tables")
    print("bench-startup: ok")


if __name__ == "__main__":
    main()
