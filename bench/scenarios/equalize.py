"""Etsion Fig. 8: two animations, one 4x the area of the other, under
overload (4 CPU stressors and 2 commit flooders): hints off vs on."""

from fwbench.metrics import client_json, field

from .flood import plaid
from .hints import hint_args, hints_na

TITLE = "equalize: anims at 1x and 4x area under overload, hints off vs on " \
    "(Fig. 8)"
FAIRWAY_ONLY = True
ROW_LABEL = "hints"

METRICS = [
    ("fps_small", "400x300 anim frames/s", "higher"),
    ("fps_large", "800x600 anim frames/s", "higher"),
    ("ratio", "fps ratio large/small (1 = equal)", "higher"),
]

PLOTS = []


def cases(opts):
    na = hints_na(opts)
    out = []
    for state in ("off", "on"):
        case = {
            "row": f"hints {state}",
            "params": {"hints": state},
            "fairway_args": hint_args(state),
            "background": [{"prog": "stress", "args": ["--workers", "4"]},
                plaid("commit"), plaid("commit")],
            "measured": [
                {"prog": "anim", "args": ["--size", "400x300",
                    "--delay-ms", "15"]},
                {"prog": "anim", "args": ["--size", "800x600",
                    "--delay-ms", "15"]},
            ],
        }
        if na:
            case["na"] = {"*": na}
        out.append(case)
    return out


def metrics(rec):
    small = field(client_json(rec, "anim", index=0), "fps")
    large = field(client_json(rec, "anim", index=1), "fps")
    m = {"fps_small": small, "fps_large": large}
    if small and large is not None:
        m["ratio"] = large / small
    return m
