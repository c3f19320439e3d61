"""Helpers scenarios use to pull numbers out of a raw run record."""


def client_json(rec, prog, role="measured", index=0):
    found = [c for c in rec["clients"] if c["prog"] == prog and
            c["role"] == role]
    if index >= len(found):
        return None
    return found[index]["json"]


def client(rec, prog, role="measured", index=0):
    found = [c for c in rec["clients"] if c["prog"] == prog and
            c["role"] == role]
    return found[index] if index < len(found) else None


def field(obj, *path):
    for key in path:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj if isinstance(obj, (int, float)) else None


def cost(rec):
    """The compositor's CPU time and context switches over the run."""
    c = rec.get("compositor_cost")
    if not c:
        return {}
    return {
        "comp_cpu_s": c["cpu_s"],
        "comp_vcsw": c["voluntary_ctxt_switches"],
        "comp_icsw": c["involuntary_ctxt_switches"],
    }


def cpu_per_frame(rec, frames):
    """The compositor's CPU time over the run, in ms, per frame the
    measured client had presented: what a frame costs, flood included."""
    c = rec.get("compositor_cost")
    if not c or not frames:
        return None
    return c["cpu_s"] * 1000.0 / frames


COST_METRICS = [
    ("comp_cpu_s", "compositor CPU time (s)", "lower"),
    ("comp_vcsw", "compositor voluntary context switches", "lower"),
    ("comp_icsw", "compositor involuntary context switches", "lower"),
]


def flood_requests(rec):
    total = 0
    seen = False
    for c in rec["clients"]:
        if c["prog"] == "plaid" and c["role"] == "background":
            n = field(c["json"], "requests")
            if n is not None:
                total += n
                seen = True
    return total if seen else None
