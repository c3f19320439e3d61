"""Round trips of a light client, alone and under 4 flooders."""

from fwbench.metrics import COST_METRICS, client_json, cost, field

from .flood import plaid

TITLE = "roundtrip: fairway-probe alone and under 4 commit or requests flooders"
FAIRWAY_ONLY = False
ROW_LABEL = "load"

METRICS = [
    ("p50", "round trip p50 (ms)", "lower"),
    ("p99", "round trip p99 (ms)", "lower"),
    ("max", "round trip max (ms)", "lower"),
    ("count", "round trips answered", "higher"),
] + COST_METRICS

PLOTS = [
    {"metric": "p99", "x": "K", "by_mode": True, "logy": True,
        "ylabel": "probe round trip p99 (ms)"},
]

# Every repeat's figure, not only the median (report.write).
ROUNDS = ["p50", "p99"]


def cases(opts):
    return [
        {"row": "alone", "params": {"K": 0},
            "measured": [{"prog": "probe", "args": []}]},
        {"row": "K=4 commit", "params": {"K": 4, "mode": "commit"},
            "background": [plaid("commit") for _ in range(4)],
            "measured": [{"prog": "probe", "args": []}]},
        # Requests flooders keep both cores busy, so the kernel's choices
        # count: fairway's hints class them background once their share
        # of the gate shows over the ratings window, 2-3 s in.
        {"row": "K=4 requests", "params": {"K": 4, "mode": "requests"},
            "background": [plaid("requests") for _ in range(4)],
            "warmup_s": 4.0,
            "measured": [{"prog": "probe", "args": []}]},
    ]


def metrics(rec):
    j = client_json(rec, "probe")
    m = {
        "p50": field(j, "roundtrip_ms", "p50"),
        "p99": field(j, "roundtrip_ms", "p99"),
        "max": field(j, "roundtrip_ms", "max"),
        "count": field(j, "roundtrip_ms", "count"),
    }
    m.update(cost(rec))
    return m
