"""The cheap request storm: what the gate costs per request.

One fairway-plaid --mode damage-only alone, sending nothing but
wl_surface.damage, 100 a flush, as fast as fairway takes them: the
cheapest request there is, so the gate's own work per request (reading,
splitting, forwarding) is all there is to see. fairway against
`--scheduler off` only, alternating run by run.
"""

from fwbench.metrics import COST_METRICS, client_json, cost, field

TITLE = "storm: a lone cheap-request storm (plaid --mode damage-only)"
FAIRWAY_ONLY = False
COMPOSITORS = ["fairway", "fairway-off"]
ROW_LABEL = "plaid mode"

METRICS = [
    ("rate", "requests/s", "higher"),
    ("cpu_per_request_us", "compositor CPU per request (us)", "lower"),
] + COST_METRICS

PLOTS = []


def cases(opts):
    return [{"row": "damage-only", "params": {"mode": "damage-only"},
        "measured": [{"prog": "plaid", "args": ["--mode", "damage-only"]}]}]


def metrics(rec):
    j = client_json(rec, "plaid")
    m = {"rate": field(j, "rate")}
    m.update(cost(rec))
    requests = field(j, "requests")
    if requests and m.get("comp_cpu_s") is not None:
        m["cpu_per_request_us"] = m["comp_cpu_s"] / requests * 1e6
    return m
