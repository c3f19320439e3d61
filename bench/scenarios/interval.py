"""Packard Figs. 3-5: fairway's time slice swept, max slice at 3x."""

from fwbench.metrics import client_json, field

from .flood import plaid

TITLE = "interval: fairway --sched-interval sweep, max slice 3x " \
    "(Packard Figs. 3-5)"
FAIRWAY_ONLY = True
ROW_LABEL = "--sched-interval"

METRICS = [
    ("echo_receipt_p99", "echo receipt p99, 4 commit flooders (ms)", "lower"),
    ("echo_p99", "echo-to-screen p99, 4 commit flooders (ms)", "lower"),
    ("anim_stddev", "anim interval stddev, 4 commit flooders (ms)", "lower"),
    ("anim_fps", "anim fps, 4 commit flooders", "higher"),
    ("lone_requests", "lone plaid requests mode (requests/s)", "higher"),
    ("lone_commit", "lone plaid commit mode (requests/s)", "higher"),
]

PLOTS = [
    {"metric": "echo_receipt_p99", "x": "interval", "logx": True,
        "ylabel": "echo receipt p99 (ms)"},
    {"metric": "echo_p99", "x": "interval", "logx": True,
        "ylabel": "echo p99 (ms)"},
    {"metric": "anim_stddev", "x": "interval", "logx": True,
        "ylabel": "anim interval stddev (ms)"},
    {"metric": "lone_requests", "x": "interval", "logx": True,
        "ylabel": "requests/s"},
]


def intervals(quick):
    return [1, 5, 20] if quick else [0.5, 1, 2, 5, 10, 20]


def cases(opts):
    out = []
    for iv in intervals(opts.quick):
        args = ["--sched-interval", f"{iv:g}", "--sched-max-slice",
                f"{3 * iv:g}"]
        flood = [plaid("commit") for _ in range(4)]
        common = {"row": f"{iv:g} ms", "fairway_args": args}
        out += [
            dict(common, params={"interval": iv, "kind": "echo"},
                background=flood, measured=[{"prog": "echo", "args": []}]),
            dict(common, params={"interval": iv, "kind": "anim"},
                background=flood, measured=[{"prog": "anim",
                    "args": ["--size", "400x300", "--delay-ms", "15"]}]),
            dict(common, params={"interval": iv, "kind": "requests"},
                measured=[{"prog": "plaid", "args": ["--mode", "requests"]}]),
            dict(common, params={"interval": iv, "kind": "commit"},
                measured=[{"prog": "plaid", "args": ["--mode", "commit"]}]),
        ]
    return out


def metrics(rec):
    kind = rec["params"].get("kind")
    if kind == "echo":
        j = client_json(rec, "echo")
        return {"echo_receipt_p99": field(j, "receipt_ms", "p99"),
            "echo_p99": field(j, "echo_ms", "p99")}
    if kind == "anim":
        j = client_json(rec, "anim")
        return {"anim_stddev": field(j, "interval_ms", "stddev"),
            "anim_fps": field(j, "fps")}
    j = client_json(rec, "plaid")
    return {f"lone_{kind}": field(j, "rate")}


