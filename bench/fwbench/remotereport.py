"""The report of `bench/run remote`: per application and protocol, the
time to the first frame against two models, the waits by cause, and where
each run's time went. bench/README.md ("remote") says what each column
means."""

import os
import shutil
import statistics
import subprocess

# Columns of the breakdown by cause: the application's waits (Wayland,
# counted at its end), X's replies and events, and the one crossing every
# start ends with.
_CAUSE_HEAD = {"registry": "registry", "sync": "sync",
    "configure": "configure/ack", "activation": "xdg-activation",
    "frame": "frame callback", "other": "other"}


def _proto(proto):
    return "X" if proto == "x11" else "Wayland"


def apps(data):
    seen = []
    for r in data["runs"]:
        key = (r["params"]["app"], r["params"]["proto"])
        if key not in seen:
            seen.append(key)
    return seen


def delays(data):
    return sorted({r["params"]["delay_ms"] for r in data["runs"]})


def good(data, app, proto, delay=None):
    return [r["clients"][0]["json"] for r in data["runs"]
        if r["params"]["app"] == app and r["params"]["proto"] == proto and
        (delay is None or r["params"]["delay_ms"] == delay) and
        not r.get("error") and not r.get("na") and r["clients"] and
        r["clients"][0]["json"]]


def med(vals):
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None


def slope(points):
    """Least-squares slope of startup (ms) against RTT (ms): the round
    trips the runs behaved as if they made."""
    if len({x for x, _ in points}) < 2:
        return None
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    sxy = sum((x - mx) * (y - my) for x, y in points)
    return sxy / sxx if sxx else None


def transfer_ms(j):
    """The time the bytes before the first frame take at the link's rate
    (none without --rate: then the copies are the local time's)."""
    rate = j.get("rate_bps")
    if not rate:
        return 0.0
    app = j.get("app") or {}
    x = j.get("x11") or {}
    nbytes = (app.get("bytes_up", 0) + app.get("bytes_down", 0) +
        x.get("bytes_up", 0) + x.get("bytes_down", 0))
    return nbytes * 8 / rate * 1000.0


def model(data):
    """Per (app, proto): local time, and per delay the medians of the
    measured time and of both models' predictions and errors.

    old: local + round trips x RTT, the round trips fairway-trace-summary
    counted at fairway's end (X: the link's count of replies).
    new: local + (waits + 1/2) x RTT + transfer: the waits counted at the
    application's end (X: replies and events the client stalled on), and
    the one-way crossing of the commit that shows the first frame."""
    out = {}
    for app, proto in apps(data):
        local = med([j["startup_ms"] for j in good(data, app, proto, 0)])
        m = {"local_ms": local, "delays": {}, "slope": None}
        points = []
        for delay in delays(data):
            runs = good(data, app, proto, delay)
            if not runs:
                continue
            rtt = 2 * delay
            meas = [j["startup_ms"] for j in runs]
            trips = [j["roundtrips"] for j in runs]
            waits = [j.get("waits") for j in runs]
            points += [(rtt, v) for v in meas]
            d = {"n": len(runs), "measured": med(meas), "min": min(meas),
                "max": max(meas), "roundtrips": med(trips),
                "rt_min": min(trips), "rt_max": max(trips),
                "waits": med(waits),
                "w_min": min((w for w in waits if w is not None),
                    default=None),
                "w_max": max((w for w in waits if w is not None),
                    default=None),
                "connect": med([j.get("connect_ms") for j in runs])}
            if local is not None and delay > 0:
                old = [local + t * rtt for t in trips]
                new = [local + (w + 0.5) * rtt + transfer_ms(j)
                    for w, j in zip(waits, runs) if w is not None]
                newm = [v for v, w in zip(meas, waits) if w is not None]
                d["old"] = med(old)
                d["old_err"] = med([v - p for v, p in zip(meas, old)])
                d["new"] = med(new)
                d["new_err"] = med([v - p for v, p in zip(newm, new)])
            m["delays"][delay] = d
        m["slope"] = slope(points)
        out[(app, proto)] = m
    return out


def _f(v, digits=0, sign=False):
    if v is None:
        return "—"
    return f"{v:+.{digits}f}" if sign else f"{v:.{digits}f}"


def _pct(err, pred):
    if err is None or not pred:
        return ""
    return f" ({100.0 * err / pred:+.0f} %)"


def _range(lo, hi):
    if lo is None:
        return "—"
    return f"{lo:g}" if lo == hi else f"{lo:g}–{hi:g}"


def _main_table(data, res):
    shown = [d for d in delays(data) if d in (10, 50)] or \
        [d for d in delays(data) if d > 0][-2:]
    out = ["**Time to the first presented frame, and the two models** "
        "(medians over the repeats, ms; RTT = 2 x the one-way delay L; "
        "old: local + round trips x RTT, the round trips counted at "
        "fairway's end; new: local + (waits + 1/2) x RTT + transfer, the "
        "waits counted at the application's end, the half the crossing "
        "of the commit that shows the frame; error = measured - "
        "predicted)", ""]
    sl = " \\| ".join(f"{d:g}" for d in shown)
    head = ["application", "protocol", "round trips (old)",
        "waits (new)", "0 ms"] + [f"{d:g} ms" for d in shown] + \
        [f"old: predicted {sl}", f"old: error {sl}",
        f"new: predicted {sl}", f"new: error {sl}",
        "effective round trips (slope)"]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "---|" * len(head))
    for (app, proto), m in res.items():
        ds = m["delays"]
        trips = sorted({v for d in ds.values() for v in (d["rt_min"],
            d["rt_max"]) if v is not None})
        waits = sorted({v for k, d in ds.items() if k > 0
            for v in (d["w_min"], d["w_max"]) if v is not None})
        line = [app, _proto(proto),
            _range(trips[0], trips[-1]) if trips else "—",
            _range(waits[0], waits[-1]) if waits else "—"]
        for delay in [0] + shown:
            d = ds.get(delay)
            line.append("—" if d is None else
                f"{_f(d['measured'])} [{_f(d['min'])}–{_f(d['max'])}]")
        for key in ("old", "new"):
            line.append(" \\| ".join(_f((ds.get(x) or {}).get(key))
                for x in shown))
            line.append(" \\| ".join(_f((ds.get(x) or {}).get(key +
                "_err"), sign=True) + _pct((ds.get(x) or {}).get(key +
                "_err"), (ds.get(x) or {}).get(key)) for x in shown))
        line.append(_f(m["slope"], 1))
        out.append("| " + " | ".join(line) + " |")
    out.append("")
    return out


def _all_delays_table(data, res):
    out = ["**Every delay** (round trips: fairway's end; waits: the "
        "application's end, [range over the runs])", "",
        "| application | protocol | delay (ms) | round trips | waits | "
        "measured [range] | old: predicted | old: error | new: predicted | "
        "new: error | launch to connection (ms) |",
        "|---|---|---|---|---|---|---|---|---|---|---|"]
    for (app, proto), m in res.items():
        for delay, d in m["delays"].items():
            out.append(f"| {app} | {_proto(proto)} | {delay:g} | "
                f"{_range(d['rt_min'], d['rt_max'])} | "
                f"{_range(d['w_min'], d['w_max'])} | {_f(d['measured'])} "
                f"[{_f(d['min'])}–{_f(d['max'])}] | {_f(d.get('old'))} | "
                f"{_f(d.get('old_err'), sign=True)} | {_f(d.get('new'))} | "
                f"{_f(d.get('new_err'), sign=True)} | "
                f"{_f(d.get('connect'))} |")
    out.append("")
    return out


def _causes_table(data):
    top = [d for d in delays(data) if d > 0]
    if not top:
        return []
    top = top[-1]
    rtt = 2 * top
    out = [f"**The waits by cause** (at L = {top:g} ms, RTT {rtt:g} ms: "
        "per run, median over the runs; in brackets the median time one "
        "such wait took, ms. Wayland: counted at the application's end "
        "(WAYLAND_DEBUG); X: the client's replies and the events it "
        "stalled on, counted by the link. Every start also ends with one "
        "crossing, the commit (Wayland, after its buffer's pixels) or the "
        "drawing (X) that makes the frame: 1/2 RTT. waypipe's own "
        "handshake is one 16-byte message ahead of the first request, "
        "answered by nothing: 0 RTT)", ""]
    head = ["application", "protocol"] + list(_CAUSE_HEAD.values()) + \
        ["X replies", "X events", "waits in all", "+ crossing (RTT)",
        "bytes up \\| down before the frame", "named others"]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "---|" * len(head))
    for app, proto in apps(data):
        runs = good(data, app, proto, top)
        if not runs:
            continue
        line = [app, _proto(proto)]
        if proto == "wayland":
            ends = [j["app"] for j in runs if j.get("app")]
            for cause in _CAUSE_HEAD:
                n = med([(e.get("causes") or {}).get(cause, 0)
                    for e in ends])
                per = med([(e["wait_ms"].get(cause, 0) /
                    e["causes"][cause]) for e in ends
                    if (e.get("causes") or {}).get(cause)])
                line.append("—" if not n else
                    f"{n:g} ({_f(per)})")
            line += ["—", "—"]
            total = med([e.get("waits") for e in ends])
            up = med([e.get("bytes_up") for e in ends])
            down = med([e.get("bytes_down") for e in ends])
            named = {}
            for e in ends:
                for k, v in (e.get("other_events") or {}).items():
                    named[k] = named.get(k, 0) + v
            names = ", ".join(f"{k} {v}" for k, v in sorted(
                named.items(), key=lambda kv: -kv[1])) or "—"
            bytes_cell = (f"{up / 1e6:.2f} MB \\| {down / 1e6:.2f} MB"
                if up is not None else "—")
        else:
            line += ["—"] * len(_CAUSE_HEAD)
            line.append(_f(med([j["x11"]["roundtrips"] for j in runs])))
            line.append(_f(med([j["x11"]["event_waits"] for j in runs])))
            total = med([j.get("waits") for j in runs])
            bytes_cell = "—"
            names = "—"
        line += [_f(total), "—" if total is None else f"{total + 0.5:g}",
            bytes_cell, names]
        out.append("| " + " | ".join(line) + " |")
    out.append("")
    return out


def _time_table(data, res):
    out = ["**Where the time went** (Wayland; medians over the runs, ms: "
        "from the launch to the application's first message; its waits on "
        "the link; its own time between them; the crossing of the commit "
        "that makes the frame, its buffer's pixels first; fairway's own "
        "time to present it. Then what the new model leaves out, against "
        "the medians at L = 0: the change in the first message, the own "
        "time and fairway's; the waits' time beyond waits x RTT; the "
        "crossing beyond L. These add up to the new model's error, up to "
        "the medians' rounding)", "",
        "| application | delay (ms) | first message | waits | own time | "
        "crossing | fairway | measured | Δ first | Δ own | Δ fairway | "
        "waits - waits x RTT | Δ crossing - L |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    keys = ("first_ms", "own_ms", "compositor_ms", "cross_ms")
    for (app, proto), m in res.items():
        if proto != "wayland":
            continue
        base = {k: med([j["app"][k] for j in good(data, app, proto, 0)
            if j.get("app")]) for k in keys}
        for delay in m["delays"]:
            ends = [j["app"] for j in good(data, app, proto, delay)
                if j.get("app")]
            if not ends:
                continue
            line = [app, f"{delay:g}",
                _f(med([e["first_ms"] for e in ends])),
                _f(med([e.get("blocked_ms") for e in ends])),
                _f(med([e["own_ms"] for e in ends])),
                _f(med([e["cross_ms"] for e in ends])),
                _f(med([e["compositor_ms"] for e in ends])),
                _f(m["delays"][delay]["measured"])]
            if delay == 0 or None in base.values():
                line += ["—"] * 5
            else:
                rtt = 2 * delay
                line += [_f(med([e[k] - base[k] for e in ends]), sign=True)
                    for k in keys[:3]]
                line.append(_f(med([e["blocked_ms"] - e["waits"] * rtt
                    for e in ends if e.get("waits") is not None]),
                    sign=True))
                line.append(_f(med([e["cross_ms"] - base["cross_ms"] -
                    delay for e in ends]), sign=True))
            out.append("| " + " | ".join(line) + " |")
    out.append("")
    return out


def _requests_table(data):
    top = delays(data)[-1] if delays(data) else None
    out = ["**Round trips by request** (at the largest delay; counts "
        "summed over its runs: fairway-trace-summary's for Wayland, the "
        "link's for X)", "",
        "| application | protocol | round trips by request | X: waits on "
        "events |", "|---|---|---|---|"]
    for app, proto in apps(data):
        runs = good(data, app, proto, top)
        by, ev = {}, {}
        for j in runs:
            for k, v in (j.get("roundtrip_requests") or {}).items():
                by[k] = by.get(k, 0) + v
            for k, v in ((j.get("x11") or {}).get("event_wait_names")
                    or {}).items():
                ev[k] = ev.get(k, 0) + v

        def fmt(d):
            return ", ".join(f"{k} {v}" for k, v in
                sorted(d.items(), key=lambda kv: -kv[1])) or "—"
        out.append(f"| {app} | {_proto(proto)} | {fmt(by)} ({len(runs)} "
            f"runs) | {fmt(ev)} |")
    out.append("")
    return out


def tables(data):
    res = model(data)
    out = _main_table(data, res) + _causes_table(data) + \
        _time_table(data, res) + _all_delays_table(data, res) + \
        _requests_table(data)
    errors = [f"{r['row']}, repeat {r['repeat']}: {r['error'] or r['na']}"
        for r in data["runs"] if r.get("error") or r.get("na")]
    if errors:
        out.append("Runs that measured nothing:  ")
        out += [e + "  " for e in errors]
        out.append("")
    loads = sorted(r["load"] for r in data["runs"]
        if r.get("load") is not None)
    if loads:
        out.append(f"Load average (1 min) at the end of each run: median "
            f"{loads[len(loads) // 2]:.2f}, range {loads[0]:.2f}–"
            f"{loads[-1]:.2f}.")
    return "\n".join(out)


def plots(data, out_dir):
    """One PNG per protocol: time to first frame against the one-way
    delay, a line per application, the new model dashed and the old one
    dotted in its colour."""
    made = []
    gnuplot = shutil.which("gnuplot")
    if gnuplot is None:
        return made
    res = model(data)
    plot_dir = os.path.join(out_dir, "plot-data")
    os.makedirs(plot_dir, exist_ok=True)
    for proto, word in (("wayland", "Wayland (waypipe)"),
            ("x11", "X (Xwayland)")):
        keys = [(a, p) for a, p in res if p == proto]
        if not keys:
            continue
        stem = f"remote-{proto}"
        dat = os.path.join(plot_dir, stem + ".dat")
        with open(dat, "w") as f:
            f.write("# delay_ms " + " ".join(f"'{a}' '{a} new model' "
                f"'{a} old model'" for a, _ in keys) + "\n")
            for delay in delays(data):
                vals = []
                for key in keys:
                    d = res[key]["delays"].get(delay) or {}
                    local = res[key]["local_ms"]
                    at0 = local if delay == 0 else None
                    vals += [d.get("measured"), d.get("new", at0),
                        d.get("old", at0)]
                f.write(f"{delay} " + " ".join("NaN" if v is None else
                    f"{v:.3f}" for v in vals) + "\n")
        png = stem + ".png"
        title = (f"time to first frame over a slow link, {word}; dashed: "
            "local + (waits + 1/2) x RTT; dotted: local + round trips "
            "counted at fairway x RTT")
        script = [
            "set terminal pngcairo size 1000,600 noenhanced",
            f"set output '{os.path.join(out_dir, png)}'",
            f"set title '{title}' font ',10'",
            "set xlabel 'one-way latency L (ms); RTT = 2L'",
            "set ylabel 'launch to first presented frame (ms)'",
            "set datafile missing 'NaN'",
            "set key top left",
            "set grid",
        ]
        parts = []
        for i, (app, _) in enumerate(keys):
            parts.append(f"'{dat}' using 1:{3 * i + 2} with linespoints "
                f"lw 2 pt 7 lc {i + 1} title '{app}'")
            parts.append(f"'{dat}' using 1:{3 * i + 3} with lines dt 2 "
                f"lw 1.5 lc {i + 1} notitle")
            parts.append(f"'{dat}' using 1:{3 * i + 4} with lines dt 3 "
                f"lw 1 lc {i + 1} notitle")
        script.append("plot " + ", ".join(parts))
        r = subprocess.run([gnuplot], input="\n".join(script) + "\n",
            text=True, capture_output=True)
        if r.returncode == 0:
            made.append((png, title))
    return made
