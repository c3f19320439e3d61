"""Packard Fig. 1: pointer echo alone and under K plaid flooders."""

from fwbench.metrics import (COST_METRICS, client_json, cost,
    cpu_per_frame, field)

from .flood import floods, plaid, row

TITLE = "interactive: fairway-echo under K plaid flooders (Packard Fig. 1)"
FAIRWAY_ONLY = False
ROW_LABEL = "load"

METRICS = [
    ("receipt_p50", "echo receipt p50 (ms)", "lower"),
    ("receipt_p99", "echo receipt p99 (ms)", "lower"),
    ("echo_p50", "echo-to-screen p50 (ms)", "lower"),
    ("echo_p99", "echo-to-screen p99 (ms)", "lower"),
    ("missed", "motions never delivered", "lower"),
    ("cpu_per_frame_ms", "compositor CPU per presented frame of the "
        "measured client (ms)", "lower"),
] + COST_METRICS

PLOTS = [
    {"metric": "receipt_p99", "x": "K", "by_mode": True,
        "ylabel": "receipt p99 (ms)"},
    {"metric": "echo_p50", "x": "K", "by_mode": True,
        "ylabel": "echo p50 (ms)"},
    {"metric": "echo_p99", "x": "K", "by_mode": True,
        "ylabel": "echo p99 (ms)"},
]

# Every repeat's figure, not only the median (report.write).
ROUNDS = ["echo_p50", "echo_p99"]


def cases(opts):
    out = []
    for k, mode in floods(opts.quick):
        out.append({
            "row": row(k, mode),
            "params": {"K": k, "mode": mode},
            "background": [plaid(mode) for _ in range(k)],
            "measured": [{"prog": "echo", "args": []}],
        })
    return out


def metrics(rec):
    j = client_json(rec, "echo")
    m = {
        "receipt_p50": field(j, "receipt_ms", "p50"),
        "receipt_p99": field(j, "receipt_ms", "p99"),
        "echo_p50": field(j, "echo_ms", "p50"),
        "echo_p99": field(j, "echo_ms", "p99"),
        "missed": field(j, "missed"),
    }
    m["cpu_per_frame_ms"] = cpu_per_frame(rec, field(j, "frames"))
    m.update(cost(rec))
    return m
