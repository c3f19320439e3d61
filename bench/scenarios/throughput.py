"""Packard Table 2: what one busy client gets done alone."""

from fwbench.metrics import COST_METRICS, client_json, cost, field

TITLE = "throughput: one fairway-plaid alone, per mode (Packard Table 2)"
FAIRWAY_ONLY = False
ROW_LABEL = "plaid mode"

METRICS = [
    ("rate", "requests/s", "higher"),
    ("commit_rate", "commits/s", "higher"),
    ("cpu_per_request_us", "compositor CPU per request (us)", "lower"),
] + COST_METRICS

PLOTS = []


def modes(quick):
    if quick:
        return ["commit", "requests"]
    return ["commit", "requests", "churn", "sync", "damage"]


def cases(opts):
    return [{"row": mode, "params": {"mode": mode},
        "measured": [{"prog": "plaid", "args": ["--mode", mode]}]}
        for mode in modes(opts.quick)]


def metrics(rec):
    j = client_json(rec, "plaid")
    m = {"rate": field(j, "rate")}
    commits, seconds = field(j, "commits"), field(j, "seconds")
    if commits and seconds:
        m["commit_rate"] = commits / seconds
    m.update(cost(rec))
    requests = field(j, "requests")
    if requests and m.get("comp_cpu_s") is not None:
        m["cpu_per_request_us"] = m["comp_cpu_s"] / requests * 1e6
    return m
