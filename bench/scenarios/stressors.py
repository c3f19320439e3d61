"""Etsion Fig. 7: an animation against CPU stressors, hints off vs on.

The stressors are started by the harness like every client, so they share
one session, and so one autogroup, with the compositor and the anim;
nice levels set by fairway's hints then compete against them directly.
The peers have no hints: they run the "hints off" rows only, as the
baseline a desktop without them gives."""

from fwbench.compositors import PEERS
from fwbench.metrics import client, client_json, field

from .hints import hint_args, hints_na

TITLE = "stressors: fairway-anim against W fairway-stress workers, " \
    "hints off vs on (Fig. 7)"
FAIRWAY_ONLY = False
COMPOSITORS = ["fairway", "fairway-off", "fairway-raised",
    "fairway-unraised", "fairway-rr", "fairway-noframe"] + PEERS
ROW_LABEL = "workers, hints"

METRICS = [
    ("fps", "anim frames/s", "higher"),
    ("anim_cpu_share", "anim CPU share (CPU s / wall s)", "higher"),
    ("interval_stddev", "anim interval stddev (ms)", "lower"),
]

PLOTS = [
    {"metric": "fps", "x": "W", "where": {"hints": state},
        "stem": f"fps-hints-{state}", "ylabel": f"anim frames/s, hints "
        f"{state}", "xlabel": "fairway-stress workers W (one session)"}
    for state in ("off", "on")
]

# Every repeat's figure, not only the median (report.write).
ROUNDS = ["fps"]


def workers(quick):
    return [0, 2, 8] if quick else [0, 1, 2, 4, 8]


def cases(opts):
    na = hints_na(opts)
    out = []
    for w in workers(opts.quick):
        for state in ("off", "on"):
            case = {
                "row": f"W={w} hints {state}",
                "params": {"W": w, "hints": state},
                "fairway_args": hint_args(state),
                "background": [{"prog": "stress",
                    "args": ["--workers", str(w)]}] if w else [],
                "measured": [{"prog": "anim",
                    "args": ["--size", "400x300", "--delay-ms", "15"]}],
            }
            if na:
                case["na"] = {"*": na}
            elif state == "on":
                case["na"] = {p: "no hints to turn on" for p in PEERS}
            out.append(case)
    return out


def metrics(rec):
    j = client_json(rec, "anim")
    c = client(rec, "anim")
    # sway 1.7 gives no presentation feedback on its headless backend:
    # no frame counted is no measure, not 0 fps.
    fps = field(j, "fps") if field(j, "frames") else None
    m = {"fps": fps,
        "interval_stddev": field(j, "interval_ms", "stddev")}
    if c and c.get("cpu_s") is not None and c.get("wall_s"):
        m["anim_cpu_share"] = c["cpu_s"] / c["wall_s"]
    return m
