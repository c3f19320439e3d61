"""Turns a scenario's raw records into OUT/SCENARIO.md (medians across
repeats, ratios to fairway) and OUT/SCENARIO-*.png (gnuplot)."""

import os
import shutil
import statistics
import subprocess

from .procs import steal_pct


def fmt(v):
    if v is None:
        return "—"
    a = abs(v)
    if float(v).is_integer() and a >= 10:
        return f"{v:.0f}"
    if a >= 1000:
        return f"{v:.0f}"
    if a >= 100:
        return f"{v:.1f}"
    if a >= 10:
        return f"{v:.2f}"
    return f"{v:.3f}"


class Footnotes:
    def __init__(self):
        self.items = []

    def ref(self, text):
        if text not in self.items:
            self.items.append(text)
        return f"[{self.items.index(text) + 1}]"

    def markdown(self):
        return "".join(f"[{i + 1}] {t}  \n" for i, t in enumerate(self.items))


def _rows(data):
    rows = []
    for r in data["runs"]:
        if r["row"] not in rows:
            rows.append(r["row"])
    return rows


def collect(module, data):
    """(row, compositor) -> {"values": {metric: [..]}, "na": set, "errors":
    [..], "params": {...}}"""
    cells = {}
    for rec in data["runs"]:
        key = (rec["row"], rec["compositor"])
        cell = cells.setdefault(key, {"values": {}, "na": [], "errors": [],
            "params": {}})
        params = dict(rec.get("params") or {})
        params.pop("kind", None)
        cell["params"] = params
        if rec.get("na"):
            cell["na"].append(rec["na"])
            continue
        if rec.get("error"):
            cell["errors"].append(rec["error"])
            continue
        for k, v in module.metrics(rec).items():
            if v is not None:
                cell["values"].setdefault(k, []).append(v)
    return cells


def median(cell, metric):
    if cell is None:
        return None
    vals = cell["values"].get(metric)
    return statistics.median(vals) if vals else None


def spread(cell, metric):
    """(min, max) over the repeats, or None with fewer than two."""
    vals = cell["values"].get(metric) if cell else None
    return (min(vals), max(vals)) if vals and len(vals) > 1 else None


def _cell_text(cell, metric, notes, ratio=None):
    if cell is None:
        return "not run"
    v = median(cell, metric)
    if v is not None:
        text = fmt(v)
        extra = []
        r = spread(cell, metric)
        if r is not None:
            extra.append(f"{fmt(r[0])}–{fmt(r[1])}")
        if ratio is not None:
            extra.append(ratio)
        if extra:
            text += " (" + "; ".join(extra) + ")"
        if cell["errors"]:
            text += " " + notes.ref(
                f"{len(cell['errors'])} of the repeats failed: "
                f"{cell['errors'][0]}")
        return text
    if cell["na"]:
        return "n/a " + notes.ref(cell["na"][0])
    if cell["errors"]:
        return "failed " + notes.ref(cell["errors"][0])
    return "—"


class _Part:
    """A scenario's report for some of its metrics: its rows and its
    metrics() as they are, only METRICS narrowed."""

    def __init__(self, module, metrics):
        self.METRICS = metrics
        self.ROW_LABEL = module.ROW_LABEL
        self.metrics = module.metrics


def tables_by_prog(module, parts, data):
    """A heading and tables for each measured program that ran: parts is
    (prog, metrics) pairs, each run's program its params' "prog"."""
    out = []
    for prog, metrics in parts:
        runs = [r for r in data["runs"] if r["params"].get("prog") == prog]
        if runs:
            out.append(f"#### {prog}\n")
            out.append(tables(_Part(module, metrics), dict(data, runs=runs)))
    return "\n".join(out)


def tables(module, data):
    cells = collect(module, data)
    rows = _rows(data)
    comps = data["compositors"]
    notes = Footnotes()
    out = []
    if len(comps) == 1:
        comp = comps[0]
        head = [module.ROW_LABEL] + [label for _, label, _ in module.METRICS]
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "---|" * len(head))
        for row in rows:
            cell = cells.get((row, comp))
            line = [row] + [_cell_text(cell, m, notes)
                for m, _, _ in module.METRICS]
            out.append("| " + " | ".join(line) + " |")
        out.append("")
    else:
        # Ratios are to fairway, or to the first fairway variant named
        # when plain fairway is not in the run (memory against socketpair).
        base = next((c for c in comps if c == "fairway"),
            next((c for c in comps if c.startswith("fairway")), None))
        ranged = data.get("repeat", 1) > 1
        what = (["the range over the repeats"] if ranged else []) + (
            [f"value / {base}"] if base else [])
        for metric, label, better in module.METRICS:
            if not any(median(cells.get((r, c)), metric) is not None
                    for r in rows for c in comps):
                continue
            out.append(f"**{label}** ({better} is better"
                    + ("; in brackets: " + " and ".join(what) if what
                        else "") + ")\n")
            head = [module.ROW_LABEL] + comps
            out.append("| " + " | ".join(head) + " |")
            out.append("|" + "---|" * len(head))
            for row in rows:
                line = [row]
                ref = median(cells.get((row, base)), metric) if base else None
                for comp in comps:
                    cell = cells.get((row, comp))
                    v = median(cell, metric)
                    ratio = (f"{v / ref:.2f}x" if comp != base and
                        v is not None and ref else None)
                    line.append(_cell_text(cell, metric, notes, ratio))
                out.append("| " + " | ".join(line) + " |")
            out.append("")
    if notes.items:
        out.append(notes.markdown())
    return "\n".join(out)


def _plot_series(module, data, spec, mode):
    """x values and, per compositor, (median, min, max) over the repeats
    at each x. spec["where"]: the params a row must have to count."""
    cells = collect(module, data)
    rows = _rows(data)
    points = {}
    for row in rows:
        for comp in data["compositors"]:
            cell = cells.get((row, comp))
            if cell is None:
                continue
            p = cell["params"]
            x = p.get(spec["x"])
            if x is None:
                continue
            if mode is not None and p.get("mode") not in (mode, None):
                continue
            if any(p.get(k) != v for k, v in spec.get("where", {}).items()):
                continue
            vals = cell["values"].get(spec["metric"])
            points.setdefault(x, {})[comp] = (statistics.median(vals),
                min(vals), max(vals)) if vals else None
    return sorted(points), points


def plots(module, data, out_dir):
    """Writes the PNGs; returns [(file, caption)]."""
    made = []
    gnuplot = shutil.which("gnuplot")
    if gnuplot is None:
        return made
    name = data["scenario"]
    plot_dir = os.path.join(out_dir, "plot-data")
    os.makedirs(plot_dir, exist_ok=True)
    for spec in module.PLOTS:
        modes = ["commit", "requests"] if spec.get("by_mode") else [None]
        for mode in modes:
            xs, points = _plot_series(module, data, spec, mode)
            comps = [c for c in data["compositors"]
                if any(points[x].get(c) is not None for x in xs)]
            if not xs or not comps:
                continue
            stem = f"{name}-{spec.get('stem', spec['metric'])}" + (
                f"-{mode}" if mode else "")
            dat = os.path.join(plot_dir, stem + ".dat")
            with open(dat, "w") as f:
                f.write("# x, then median min max of each of: "
                    + " ".join(comps) + "\n")
                for x in xs:
                    vals = [points[x].get(c) for c in comps]
                    f.write(f"{x} " + " ".join("NaN NaN NaN" if v is None
                        else " ".join(repr(a) for a in v)
                        for v in vals) + "\n")
            png = stem + ".png"
            title = spec["ylabel"] + (f", {mode} flood" if mode else "")
            xlabel = spec.get("xlabel") or {"K": "flooding clients K",
                "interval": "--sched-interval (ms), max slice 3x"}.get(
                spec["x"], spec["x"])
            script = [
                "set terminal pngcairo size 800,500 noenhanced",
                f"set output '{os.path.join(out_dir, png)}'",
                f"set title '{title}'",
                f"set xlabel '{xlabel}'",
                f"set ylabel '{spec['ylabel']}'",
                "set datafile missing 'NaN'",
                "set key outside right top",
                "set offsets graph 0.05, graph 0.05, 0, 0",
                "set grid",
            ]
            if spec.get("logx"):
                script.append("set logscale x")
            if spec.get("logy"):
                script.append("set logscale y")
            # The median, and a bar over the repeats' range; each
            # compositor a little aside so that the bars stay apart.
            step = (xs[-1] - xs[0]) / 150.0 if len(xs) > 1 else 0.02
            parts = []
            for i, c in enumerate(comps):
                off = i - (len(comps) - 1) / 2.0
                xcol = (f"($1*{1 + 0.01 * off!r})" if spec.get("logx")
                    else f"($1+{step * off!r})")
                col = 2 + 3 * i
                # One look per compositor across the plots, whichever
                # are missing from this one.
                lt = data["compositors"].index(c) + 1
                parts.append(f"'{dat}' using {xcol}:{col}:{col + 1}:"
                    f"{col + 2} with yerrorlines lt {lt} lw 2 title '{c}'")
            script.append("plot " + ", ".join(parts))
            r = subprocess.run([gnuplot], input="\n".join(script) + "\n",
                text=True, capture_output=True)
            if r.returncode == 0:
                made.append((png, title))
    # A scenario may draw plots of its own (tail: whole distributions).
    if hasattr(module, "plots"):
        made += module.plots(data, out_dir, gnuplot)
    return made


def stolen(data):
    """The share of CPU time the host took over the whole run, where the
    machine is a virtual one that counts it: rounds on a host that took
    much have longer tails whoever the compositor."""
    start = data["machine"].get("cpu_steal")
    end = (data.get("machine_end") or {}).get("cpu_steal")
    pct = steal_pct(start, end) if start and end else None
    return (f"; CPU time stolen by the host over the run {pct:.2f}%"
        if pct is not None else "")


def write(module, data, out_dir):
    name = data["scenario"]
    made = plots(module, data, out_dir)
    if hasattr(module, "report_plots"):
        made += module.report_plots(data, out_dir)
    m = data["machine"]
    lines = [
        f"# {module.TITLE}",
        "",
        f"Command: `{data['command']}`  ",
        f"Date: {data['date']}; machine: {m['nproc']} CPUs ({m['cpu']}), "
        f"kernel {m['kernel']}, load average at start {m['loadavg']}"
        + (f", at the end {data['machine_end']['loadavg']}"
            if data.get("machine_end") else "") + stolen(data) + "  ",
        (f"{data['repeat']} repeat(s), the compositors in turn within each; "
            "cells are medians across repeats.  "
            if getattr(module, "UNTIMED", False) else
            f"Duration {data['duration_s']:g} s per run, {data['repeat']} "
            f"repeat(s), the compositors in turn within each; cells are "
            f"medians across repeats.  "),
        "Compositors: " + "; ".join(f"{c}: {data['versions'].get(c, '?')}"
            for c in data["compositors"]) + "  ",
        "Other people's builds and tests share this machine: expect noise.",
        "",
        "A cell is the median over the repeats; \"—\" means the client ran "
        "but measured no sample of that kind (bench/README.md says why); "
        "\"n/a\" and \"failed\" carry their reason as a footnote.",
        "",
        module.report_tables(data) if hasattr(module, "report_tables")
        else tables(module, data),
    ]
    if hasattr(module, "ROUNDS"):
        lines.append(rounds(module, data))
    for png, title in made:
        lines += [f"![{title}]({png})", ""]
    with open(os.path.join(out_dir, f"{name}.md"), "w") as f:
        f.write("\n".join(lines))


def rounds(module, data):
    """Each repeat's figure, in the order run, for the metrics a scenario
    names in ROUNDS: the medians above hide how far rounds differ."""
    labels = {m: label for m, label, _ in module.METRICS}
    cells = {}
    for rec in data["runs"]:
        if rec.get("na") or rec.get("error"):
            vals = {}
        else:
            vals = module.metrics(rec)
        cells.setdefault((rec["row"], rec["compositor"]), []).append(vals)
    out = []
    for metric in module.ROUNDS:
        body = []
        for row in _rows(data):
            line = [row]
            for comp in data["compositors"]:
                runs = cells.get((row, comp), [])
                line.append(" ".join(fmt(r.get(metric)) for r in runs))
            if any(v not in ("", "—") for v in
                    " ".join(line[1:]).split()):
                body.append("| " + " | ".join(line) + " |")
        if not body:
            continue
        out.append(f"**{labels[metric]}, every repeat in order**\n")
        head = [module.ROW_LABEL] + data["compositors"]
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "---|" * len(head))
        out += body + [""]
    return "\n".join(out)
