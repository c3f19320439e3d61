"""Many idle clients plus a flood: does fairway's per-client work grow?"""

from fwbench.metrics import (COST_METRICS, client_json, cost, field,
    flood_requests)

from .flood import plaid

TITLE = "scale: N idle clients plus 4 commit flooders, probe latency"
FAIRWAY_ONLY = False
ROW_LABEL = "idle clients"

METRICS = [
    ("p50", "probe round trip p50 (ms)", "lower"),
    ("p99", "probe round trip p99 (ms)", "lower"),
    ("us_per_request", "compositor CPU per flood request (us)", "lower"),
    ("kib_per_client", "compositor RSS per idle client (KiB)", "lower"),
] + COST_METRICS

PLOTS = []


def counts(quick):
    return [10, 100] if quick else [10, 100, 500]


def cases(opts):
    return [{
        "row": f"{n}",
        "params": {"N": n},
        "setup": [{"prog": "idle", "args": ["--connections", str(n)],
            "ready": "ready"}],
        "background": [plaid("commit") for _ in range(4)],
        "measured": [{"prog": "probe", "args": []}],
    } for n in counts(opts.quick)]


def metrics(rec):
    j = client_json(rec, "probe")
    m = {"p50": field(j, "roundtrip_ms", "p50"),
        "p99": field(j, "roundtrip_ms", "p99")}
    m.update(cost(rec))
    requests = flood_requests(rec)
    if requests and m.get("comp_cpu_s") is not None:
        m["us_per_request"] = m["comp_cpu_s"] / requests * 1e6
    rss = rec.get("rss_kib") or {}
    n = rec["params"]["N"]
    if rss.get("start") is not None and rss.get("setup") is not None:
        m["kib_per_client"] = (rss["setup"] - rss["start"]) / n
    return m
