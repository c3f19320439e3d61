"""An animation and the pointer echo beside CPU hogs, each hog in a
session of its own.

With autogroups (Debian's kernels) every session is a task group, and
the kernel shares the CPU between groups before it looks at nice: hogs
started as a desktop starts them (a terminal's jobs, other applications)
each weigh as much as the compositor's whole group and the application's.
So here the compositor, the measured client and each of the W
`fairway-stress --sessions` workers run in a session of their own, as a
display manager starts a compositor and a desktop its applications
(bench/group-ab measures the same on fairway alone, hints off against on).

FWBENCH_HOGS_LAYOUT=shell starts the compositor in the harness's own
session instead, as from a login shell or a terminal: fairway cannot
raise a group it shares, so its group weighs as much as one hog's.

The animation draws for --work-ms of CPU a frame every --delay-ms, as
group-ab's; the echo client drives its pointer at 250 Hz. Every
compositor runs its defaults: fairway's hints and its raised priority
where it may (it runs as the harness's user), the peers as they ship."""

import os
import sys

from fwbench.metrics import (COST_METRICS, client_json, cost,
    cpu_per_frame, field)

from .animation import presents

TITLE = ("hogs: fairway-anim and fairway-echo beside W CPU hogs, each in "
    "a session of its own")
FAIRWAY_ONLY = False
ROW_LABEL = "client, hogs"
HOGS = 8

ANIM_METRICS = [
    ("fps", "anim frames presented per second", "higher"),
    ("interval_stddev", "anim frame interval stddev (ms)", "lower"),
    ("draw_p99", "anim commit to presented p99 (ms)", "lower"),
]
ECHO_METRICS = [
    ("echo_p50", "echo-to-screen p50 (ms)", "lower"),
    ("echo_p99", "echo-to-screen p99 (ms)", "lower"),
    ("receipt_p99", "echo receipt p99 (ms)", "lower"),
]
SHARED_METRICS = [
    ("cpu_per_frame_ms", "compositor CPU per presented frame of the "
        "measured client (ms)", "lower"),
] + COST_METRICS
METRICS = ANIM_METRICS + ECHO_METRICS + SHARED_METRICS

# Every repeat's figure, not only the median (report.write).
ROUNDS = ["fps", "echo_p50", "echo_p99"]

PLOTS = [
    {"metric": "fps", "x": "W", "where": {"prog": "anim"},
        "ylabel": "anim frames/s", "xlabel": "CPU hogs, each in its own "
        "session"},
    {"metric": "echo_p50", "x": "W", "where": {"prog": "echo"},
        "ylabel": "echo-to-screen p50 (ms)", "xlabel": "CPU hogs, each in "
        "its own session"},
    {"metric": "echo_p99", "x": "W", "where": {"prog": "echo"},
        "ylabel": "echo-to-screen p99 (ms)", "xlabel": "CPU hogs, each in "
        "its own session"},
]

MEASURED = {
    "anim": ["--size", "400x300", "--delay-ms", "11", "--work-ms", "4",
        "--warmup", "2"],
    "echo": ["--hz", "250"],
}


def cases(opts):
    out = []
    for prog in ("anim", "echo"):
        for w in (0, HOGS):
            case = {
                "row": f"{prog} " + (f"W={w}" if w else "alone"),
                "params": {"prog": prog, "W": w},
                "measured": [{"prog": prog, "args": MEASURED[prog]}],
                "sessions": True,
                "compositor_session":
                    os.environ.get("FWBENCH_HOGS_LAYOUT") != "shell",
            }
            if w:
                case["background"] = [{"prog": "stress",
                    "args": ["--workers", str(w), "--sessions"]}]
                # The hogs at full speed before the measured client starts.
                case["warmup_s"] = 2.0
            out.append(case)
    return out


def metrics(rec):
    prog = rec["params"].get("prog")
    j = client_json(rec, prog)
    m = {}
    if prog == "anim" and presents(j):
        m = {
            "fps": field(j, "fps"),
            "interval_stddev": field(j, "interval_ms", "stddev"),
            "draw_p99": field(j, "draw_ms", "p99"),
        }
    elif prog == "echo":
        m = {
            "echo_p50": field(j, "echo_ms", "p50"),
            "echo_p99": field(j, "echo_ms", "p99"),
            "receipt_p99": field(j, "receipt_ms", "p99"),
        }
    m["cpu_per_frame_ms"] = cpu_per_frame(rec, field(j, "frames"))
    m.update(cost(rec))
    return m


def report_tables(data):
    from fwbench import report
    return report.tables_by_prog(sys.modules[__name__],
        (("anim", ANIM_METRICS + SHARED_METRICS),
            ("echo", ECHO_METRICS + SHARED_METRICS)), data)
