"""The tails: echo-to-screen of a window that draws on frame callbacks
(fairway-follow, its pointer at 250 Hz), idle and under 4 full-output
commit flooders, and a probe's round trip under the same flood. Also
follow with its pointer at 8 Hz, a typist's pace: each motion then finds
the output idle, as a keystroke after a pause does. Each run
keeps every sample, so the report plots the whole distributions, not only
their percentiles.

With FAIRWAY_AB_BUILD=DIR, every case runs twice in a row, with this
build's fairway and with DIR's (the "before"), the clients always this
build's: the rows then alternate before and after within each repeat.
FWBENCH_TAIL_LOADS=WORD,... keeps only the loads whose name holds a word
(follow, probe, K=4, 8 Hz).

The compositor and every client run in a session of their own, as a
display manager starts a compositor, and a desktop (fairway's launcher, a
terminal's jobs) its applications: with autogroups, each is a task group,
the level where the kernel shares the CPU first and where fairway's hints
reach a whole application (fairway(5))."""

import os
import shutil
import sys
import subprocess
import tempfile

from fwbench.metrics import (COST_METRICS, client_json, cost,
    cpu_per_frame, field)
from fwbench.runner import run_one

from .flood import plaid

TITLE = ("tail: echo-to-screen of a frame-callback client and a probe's "
    "round trip, idle and under 4 commit flooders")
FAIRWAY_ONLY = False
# What the tails depend on: deadline-driven frames and the gate; and the
# peers, where the same clients run on them.
COMPOSITORS = ["fairway", "fairway-noframe", "fairway-off", "fairway-before",
    "sway", "sway-rr", "labwc", "weston", "cage"]
ROW_LABEL = "case"

ECHO_METRICS = [
    ("echo_p50", "echo-to-screen p50 (ms)", "lower"),
    ("echo_p99", "echo-to-screen p99 (ms)", "lower"),
    ("echo_over_20", "echo-to-screen samples over 20 ms (%)", "lower"),
    ("event_p99", "echo-to-screen p99 from the event's timestamp (ms)",
        "lower"),
    ("draw_p99", "follow's draw, frame callback to commit, p99 (ms)",
        "lower"),
    ("frames", "frames presented to the measured client", "higher"),
    ("cpu_per_frame_ms", "compositor CPU per presented frame of the "
        "measured client (ms)", "lower"),
]
PROBE_METRICS = [
    ("rt_p50", "probe round trip p50 (ms)", "lower"),
    ("rt_p99", "probe round trip p99 (ms)", "lower"),
    ("rt_max", "probe round trip max (ms)", "lower"),
]
METRICS = ECHO_METRICS + PROBE_METRICS + COST_METRICS

PLOTS = []

AB_ENV = "FAIRWAY_AB_BUILD"
LOADS = [
    ("follow alone", "follow", 0, []),
    ("follow K=4 commit", "follow", 4, []),
    ("probe K=4 commit", "probe", 4, []),
    ("follow at 8 Hz", "follow", 0, ["--hz", "8"]),
]


def cases(opts):
    before = os.environ.get(AB_ENV)
    builds = [None, os.path.abspath(before)] if before else [None]
    only = [w for w in os.environ.get("FWBENCH_TAIL_LOADS", "").split(",")
        if w]
    out = []
    for row, prog, k, args in LOADS:
        if only and not any(w in row for w in only):
            continue
        for build in builds:
            out.append({
                "row": row + (" (before)" if build else ""),
                "params": {"K": k, "prog": prog, "load": row,
                    "build": build or "this"},
                "background": [plaid("commit") for _ in range(k)],
                "measured": [{"prog": prog, "args": list(args)}],
                "ab_build": build,
                "sessions": True,
            })
    return out


def _ab_build(ctx, tmp, before):
    """A build folder whose fairway is before's and whose clients are
    this build's: runner.run_one takes both from one folder."""
    path = os.path.join(tmp, "build")
    os.makedirs(os.path.join(path, "compositor"))
    os.symlink(os.path.join(before, "compositor", "fairway"),
        os.path.join(path, "compositor", "fairway"))
    os.symlink(os.path.join(ctx.build, "clients"),
        os.path.join(path, "clients"))
    return path


def run(ctx, name, case, comp, repeat):
    tmp = tempfile.mkdtemp(prefix="fwbench-tail-")
    samples = os.path.join(tmp, "samples")
    # The peers' clients run as the bench's own user: they may reach and
    # fill the samples file, nothing else here.
    os.chmod(tmp, 0o711)
    with open(samples, "w"):
        pass
    os.chmod(samples, 0o666)
    case = dict(case)
    case["measured"] = [dict(m, args=list(m["args"]) + ["--samples",
        samples]) for m in case["measured"]]
    build = ctx.build
    try:
        if case.get("ab_build"):
            ctx.build = _ab_build(ctx, tmp, case["ab_build"])
        rec = run_one(ctx, name, case, comp, repeat)
        try:
            with open(samples) as f:
                # One string, not a list: a list is a line each in the JSON.
                rec["samples_ms"] = " ".join(f.read().split())
        except OSError:
            rec["samples_ms"] = ""
    finally:
        ctx.build = build
        shutil.rmtree(tmp, ignore_errors=True)
    rec.pop("ab_build", None)
    return rec


def metrics(rec):
    m = {}
    j = client_json(rec, rec["params"].get("prog", "follow"))
    if rec["params"].get("prog") == "probe":
        m["rt_p50"] = field(j, "roundtrip_ms", "p50")
        m["rt_p99"] = field(j, "roundtrip_ms", "p99")
        m["rt_max"] = field(j, "roundtrip_ms", "max")
    else:
        m["echo_p50"] = field(j, "echo_ms", "p50")
        m["echo_p99"] = field(j, "echo_ms", "p99")
        m["event_p99"] = field(j, "event_ms", "p99")
        m["draw_p99"] = field(j, "draw_ms", "p99")
        m["frames"] = field(j, "frames")
        m["cpu_per_frame_ms"] = cpu_per_frame(rec, field(j, "frames"))
        s = samples(rec)
        if s:
            m["echo_over_20"] = 100.0 * sum(v > 20.0 for v in s) / len(s)
    m.update(cost(rec))
    return m


def samples(rec):
    return [float(v) for v in (rec.get("samples_ms") or "").split()]


def _nearest_rank(sorted_vals, pct):
    n = len(sorted_vals)
    return sorted_vals[max(0, min(n - 1, -(-pct * n // 100) - 1))]


def plots(data, out_dir, gnuplot):
    """One plot per load: each compositor's distribution over all its
    repeats (and the before build's beside it), as the share of samples
    above x on a log scale, where a tail shows."""
    made = []
    plot_dir = os.path.join(out_dir, "plot-data")
    os.makedirs(plot_dir, exist_ok=True)
    loads = []
    for rec in data["runs"]:
        load = rec["params"].get("load", rec["row"])
        if load not in loads:
            loads.append(load)
    for i, load in enumerate(loads):
        series = []
        for build in ("this", "before"):
            for c, comp in enumerate(data["compositors"]):
                pooled = sorted(v for rec in data["runs"]
                    if rec["params"].get("load", rec["row"]) == load
                    and (rec["params"].get("build", "this") == "this") ==
                    (build == "this") and rec["compositor"] == comp
                    and not rec.get("error") for v in samples(rec))
                if not pooled:
                    continue
                name = comp + (" before" if build == "before" else "")
                dat = os.path.join(plot_dir,
                    f"tail-{i}-{name.replace(' ', '-')}.dat")
                n = len(pooled)
                with open(dat, "w") as f:
                    f.write(f"# {load}, {name}: value (ms), share above\n")
                    for k, v in enumerate(pooled):
                        f.write(f"{v} {max(1.0 - (k + 1) / n, 0.5 / n)}\n")
                series.append((dat, f"{name} (n={n}, p99 "
                    f"{_nearest_rank(pooled, 99):.2f})",
                    f"lc {c + 1} " +
                    ("dt 2" if build == "before" else "dt 1")))
        if not series:
            continue
        probe = load.startswith("probe")
        png = f"tail-{i}.png"
        xlabel = "round trip (ms)" if probe else "echo-to-screen (ms)"
        script = [
            "set terminal pngcairo size 800,500 noenhanced",
            f"set output '{os.path.join(out_dir, png)}'",
            f"set title '{load}: share of samples above x'",
            f"set xlabel '{xlabel}'",
            "set ylabel 'share above'",
            "set logscale y",
            "set yrange [0.0005:1]",
            "set key top right",
            "set grid",
            "set arrow from graph 0, first 0.01 to graph 1, first 0.01 "
            "nohead dt 3",
        ]
        if probe:
            script.append("set logscale x")
        else:
            script.append("set xrange [0:50]")
            script.append("set arrow from 20, graph 0 to 20, graph 1 "
                "nohead dt 2")
        script.append("plot " + ", ".join(f"'{dat}' using 1:2 with steps "
            f"lw 2 {dash} title '{title}'" for dat, title, dash in series))
        r = subprocess.run([gnuplot], input="\n".join(script) + "\n",
            text=True, capture_output=True)
        if r.returncode == 0:
            made.append((png, f"{load}: the distributions"))
    return made


def rounds(data):
    """Each repeat's p99 per case and compositor: the claim is per round,
    not about the median of rounds."""
    out = []
    key = {"probe": ("roundtrip_ms", "round trip"),
        "follow": ("echo_ms", "echo-to-screen")}
    rows = []
    for rec in data["runs"]:
        if rec["row"] not in rows:
            rows.append(rec["row"])
    for row in rows:
        for comp in data["compositors"]:
            vals = []
            for rec in data["runs"]:
                if rec["row"] != row or rec["compositor"] != comp:
                    continue
                prog = rec["params"].get("prog", "follow")
                vals.append(field(client_json(rec, prog), key[prog][0],
                    "p99"))
            if vals:
                text = ", ".join("—" if v is None else f"{v:.2f}"
                    for v in vals)
                out.append(f"| {row} | {comp} | {text} |")
    if not out:
        return ""
    return "\n".join(["**p99 in each repeat, in order (ms)**\n",
        "| case | compositor | p99 per repeat |", "|---|---|---|"] + out
        + [""])


def report_tables(data):
    from fwbench import report
    return report.tables_by_prog(sys.modules[__name__],
        (("follow", ECHO_METRICS + COST_METRICS),
            ("probe", PROBE_METRICS + COST_METRICS)), data) + "\n" + \
        rounds(data)
