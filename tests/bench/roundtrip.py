#!/usr/bin/env python3
"""Runs `bench/run roundtrip --compositors fairway --duration 2 --repeat 1`
against the build in $FAIRWAY_BUILD and checks what it wrote: every run
has the probe's summary and the compositor's cost, and the report has its
table. Speed is never asserted."""

import json
import os
import subprocess
import sys
import tempfile


def fail(msg):
    print(f"bench-roundtrip: FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def main():
    run = os.environ["FAIRWAY_BENCH_RUN"]
    build = os.environ["FAIRWAY_BUILD"]
    with tempfile.TemporaryDirectory(prefix="fw-bench-test-") as out:
        r = subprocess.run([sys.executable, run, "roundtrip",
            "--compositors", "fairway", "--duration", "2", "--repeat", "1",
            "--build", build, "--out", out], timeout=150)
        if r.returncode != 0:
            fail(f"bench/run exited {r.returncode}")
        with open(os.path.join(out, "roundtrip.json")) as f:
            data = json.load(f)
        if data["compositors"] != ["fairway"]:
            fail(f"compositors {data['compositors']}")
        if data["machine"]["nproc"] is None or not data["machine"]["kernel"]:
            fail("machine facts missing")
        runs = data["runs"]
        if {r["row"] for r in runs} != {"alone", "K=4 commit", "K=4 requests"}:
            fail(f"rows {[r['row'] for r in runs]}")
        for rec in runs:
            if rec["error"] or rec["na"]:
                fail(f"{rec['row']}: {rec['error'] or rec['na']}")
            probe = [c for c in rec["clients"] if c["prog"] == "probe"]
            if len(probe) != 1 or probe[0]["json"] is None:
                fail(f"{rec['row']}: no probe summary")
            if probe[0]["json"]["roundtrip_ms"]["count"] < 1:
                fail(f"{rec['row']}: no round trip answered")
            floods = [c for c in rec["clients"] if c["prog"] == "plaid"]
            want = 4 if rec["row"].startswith("K=4 ") else 0
            if len(floods) != want or any(c["json"] is None for c in floods):
                fail(f"{rec['row']}: {len(floods)} flooder summaries")
            cost = rec["compositor_cost"]
            if cost is None or cost["cpu_s"] < 0 or \
                    cost["voluntary_ctxt_switches"] < 0:
                fail(f"{rec['row']}: compositor cost {cost}")
        with open(os.path.join(out, "roundtrip.md")) as f:
            md = f.read()
        if "| alone |" not in md or "round trip p99" not in md:
            fail("the report lacks its table")
    print("bench-roundtrip: ok")


if __name__ == "__main__":
    main()
