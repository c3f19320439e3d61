"""The flood shared by the latency scenarios: K plaid clients in one mode."""


def plaid(mode, extra=()):
    return {"prog": "plaid", "args": ["--mode", mode] + list(extra)}


def floods(quick):
    """(K, mode) pairs after Packard's Fig. 1; K = 0 is the client alone."""
    ks = [1, 4] if quick else [1, 2, 4, 8]
    pairs = [(0, None)]
    for mode in ("commit", "requests"):
        pairs += [(k, mode) for k in ks]
    return pairs


def row(k, mode):
    return "alone" if k == 0 else f"K={k} {mode}"
