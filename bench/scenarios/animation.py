"""Packard Fig. 2: a steady animation alone and under the same floods."""

from fwbench.metrics import (COST_METRICS, client_json, cost,
    cpu_per_frame, field)

from .flood import floods, plaid, row

TITLE = "animation: fairway-anim (15 ms delay, 400x300) under K flooders " \
    "(Packard Fig. 2)"
FAIRWAY_ONLY = False
ROW_LABEL = "load"

METRICS = [
    ("fps", "frames presented per second", "higher"),
    ("interval_mean", "frame interval mean (ms)", "lower"),
    ("interval_stddev", "frame interval stddev (ms)", "lower"),
    ("draw_mean", "drawing latency, commit to presented, mean (ms)", "lower"),
    ("draw_p99", "drawing latency p99 (ms)", "lower"),
    ("cpu_per_frame_ms", "compositor CPU per presented frame of the "
        "measured client (ms)", "lower"),
] + COST_METRICS

PLOTS = [
    {"metric": "fps", "x": "K", "by_mode": True, "ylabel": "frames/s"},
    {"metric": "interval_stddev", "x": "K", "by_mode": True,
        "ylabel": "interval stddev (ms)"},
    {"metric": "draw_mean", "x": "K", "by_mode": True,
        "ylabel": "commit to presented, mean (ms)"},
]

# Every repeat's figure, not only the median (report.write).
ROUNDS = ["fps"]


def cases(opts):
    out = []
    for k, mode in floods(opts.quick):
        out.append({
            "row": row(k, mode),
            "params": {"K": k, "mode": mode},
            "background": [plaid(mode) for _ in range(k)],
            "measured": [{"prog": "anim",
                "args": ["--size", "400x300", "--delay-ms", "15"]}],
        })
    return out


def presents(j):
    """False when the compositor took the frames but never reported one
    presented (sway 1.7 headless): fps is then unknown, not zero."""
    frames, commits = field(j, "frames"), field(j, "commits")
    discarded = field(j, "discarded") or 0
    return not (frames == 0 and commits and commits - discarded > 10)


def metrics(rec):
    j = client_json(rec, "anim")
    if not presents(j):
        return cost(rec)
    m = {
        "fps": field(j, "fps"),
        "interval_mean": field(j, "interval_ms", "mean"),
        "interval_stddev": field(j, "interval_ms", "stddev"),
        "draw_mean": field(j, "draw_ms", "mean"),
        "draw_p99": field(j, "draw_ms", "p99"),
    }
    m["cpu_per_frame_ms"] = cpu_per_frame(rec, field(j, "frames"))
    m.update(cost(rec))
    return m
