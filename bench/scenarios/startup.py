"""Application startup, after Packard and Gettys' "X Window System Network
Performance": real applications started one at a time under `fairway
--trace`, until fairway first presents a frame that shows them; their
round trips, time blocked on answers and startup time, with the scheduler
on and off."""

import importlib.machinery
import importlib.util
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

from fwbench import compositors, report
from fwbench.procs import Proc

TITLE = ("startup: real applications until their first frame is presented "
    "(Packard-Gettys Table 2)")
FAIRWAY_ONLY = False
# The first-presented marker and the trace are fairway's own.
COMPOSITORS = ["fairway", "fairway-off"]
ROW_LABEL = "application"
# Each run lasts until the first frame: --duration does not apply.
UNTIMED = True

FIRST_FRAME_TIMEOUT_S = 30.0
XWAYLAND_TIMEOUT_S = 30.0

APPS = [
    {"row": "foot", "argv": ["foot"]},
    {"row": "weston-terminal", "argv": ["weston-terminal"]},
    {"row": "gtk3-demo", "argv": ["gtk3-demo"]},
    # GTK 4 has no GL headless here: its cairo renderer draws in memory.
    {"row": "gtk4-demo", "argv": ["gtk4-demo"],
        "env": {"GSK_RENDERER": "cairo"}},
    # An X client: Xwayland (started for it beforehand, by xdpyinfo) is
    # the Wayland client whose round trips count.
    {"row": "xterm (XWayland)", "argv": ["xterm"], "x11": True},
]

METRICS = [
    ("startup_ms", "startup: launch to first presented frame (ms)", "lower"),
    ("roundtrips", "round trips until then", "lower"),
    ("blocked_ms", "time blocked on answers (ms)", "lower"),
    ("queued_ms", "time with requests queued in the gate (ms)", "lower"),
    ("idle_ms", "time idle, connected (ms)", "lower"),
    ("connect_ms", "launch to connection (ms)", "lower"),
    ("requests", "requests until then", "lower"),
    ("events", "events until then", "lower"),
]

PLOTS = []


def cases(opts):
    # FWBENCH_STARTUP_APPS=foot,xterm: only those (the CI test's shortcut).
    only = [a for a in os.environ.get("FWBENCH_STARTUP_APPS", "").split(",")
        if a]
    out = []
    for app in APPS:
        if only and app["argv"][0] not in only:
            continue
        case = dict(app)
        case["params"] = {"app": app["row"]}
        if shutil.which(app["argv"][0]) is None:
            case["na"] = {"*": f"{app['argv'][0]} is not installed"}
        out.append(case)
    return out


def _load_summary_tool():
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "clients", "tools",
        "fairway-trace-summary")
    loader = importlib.machinery.SourceFileLoader("trace_summary", path)
    spec = importlib.util.spec_from_loader("trace_summary", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def _records(path):
    """The whole records in the trace so far (a line may be half written)."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return []
    out = []
    for line in text.split("\n")[:-1]:
        try:
            out.append(json.loads(line))
        except ValueError:
            pass
    return out


def _first_frame(records, launched_t, app_pid, x11):
    """The presented record that shows the application, or None. An X
    application's frames are Xwayland's, whose connection fairway made: the
    gate learns its pid (a "pid" record), while without the gate the trace
    names it by fairway's own pid."""
    start = next((r for r in records if r["dir"] == "start"), None)
    if start is None:
        return None
    xwayland = {r.get("client") for r in records
        if r["dir"] == "pid" and r.get("comm") == "Xwayland"}
    for r in records:
        if r["dir"] != "presented" or r["t"] < launched_t:
            continue
        if not x11 and r["pid"] == app_pid:
            return r
        if x11 and (r.get("client") in xwayland or r["pid"] == start["pid"]):
            return r
    return None


def _display(out_path, deadline):
    while time.monotonic() < deadline:
        try:
            with open(out_path) as f:
                for line in f:
                    if line.startswith("DISPLAY=") and line.strip() != \
                            "DISPLAY=":
                        return line.strip().split("=", 1)[1]
        except OSError:
            pass
        time.sleep(0.02)
    return None


def run(ctx, scenario, case, comp_name, repeat):
    rec = {"scenario": scenario, "row": case["row"],
        "params": case.get("params", {}), "compositor": comp_name,
        "repeat": repeat, "duration_s": ctx.duration, "clients": [],
        "compositor_cost": None, "rss_kib": {}, "error": None, "na": None}
    na = case.get("na", {}).get(comp_name) or case.get("na", {}).get("*")
    if na:
        rec["na"] = na
        return rec
    tmp = tempfile.mkdtemp(prefix="fwbench-startup-")
    trace = os.path.join(tmp, "trace")
    running = app = None
    x11 = case.get("x11", False)
    try:
        running = compositors.start(comp_name, ctx.build, ctx.account, tmp,
            ["--trace", trace], xwayland=x11)
        comp = running.proc
        if not running.wait_socket():
            rec["error"] = ("compositor made no socket: " +
                comp.stderr_tail(400).strip().replace("\n", " | "))
            return rec
        env = running.client_env()
        # Nobody's settings: an empty configuration folder, and no
        # accessibility bus to look for (there is no session bus).
        env["XDG_CONFIG_HOME"] = os.path.join(tmp, "config")
        env["NO_AT_BRIDGE"] = "1"
        env.update(case.get("env", {}))
        if x11:
            display = _display(os.path.join(tmp, f"{comp_name}.out"),
                time.monotonic() + XWAYLAND_TIMEOUT_S)
            if display is None:
                rec["error"] = "fairway announced no DISPLAY"
                return rec
            env["DISPLAY"] = display
            warm = Proc(["xdpyinfo"], env, ctx.account,
                os.path.join(tmp, "xdpyinfo.out"),
                os.path.join(tmp, "xdpyinfo.err"))
            if warm.wait(XWAYLAND_TIMEOUT_S) != 0:
                warm.stop(grace=1.0)
                rec["error"] = "xdpyinfo never reached Xwayland"
                return rec
        start = next((r for r in _records(trace) if r["dir"] == "start"),
            None)
        if start is None:
            rec["error"] = "the trace has no start record"
            return rec
        launched = time.monotonic()
        app = Proc(case["argv"], env, ctx.account,
            os.path.join(tmp, "app.out"), os.path.join(tmp, "app.err"))
        launched_t = launched - start["monotonic"]
        deadline = launched + FIRST_FRAME_TIMEOUT_S
        frame = None
        while frame is None and time.monotonic() < deadline:
            if app.poll() is not None or comp.poll() is not None:
                break
            time.sleep(0.01)
            frame = _first_frame(_records(trace), launched_t, app.pid, x11)
        if frame is None:
            rec["error"] = (f"no frame presented within "
                f"{FIRST_FRAME_TIMEOUT_S:g} s: "
                + app.stderr_tail(300).strip().replace("\n", " | "))
            return rec
        app.stop(grace=3.0)
        app_rec = {"role": "measured", "prog": case["argv"][0],
            "args": case["argv"][1:], "rc": app.rc, "timed_out": False,
            "json": None, "cpu_s": app.cpu_seconds(),
            "wall_s": round(app.ended - app.started, 4)}
        running.stop()
        running = None
        tool = _load_summary_tool()
        rows = tool.summarize(tool.read_records([trace]), startup=True,
            launched=launched_t)
        row = next((r for r in rows if r["client"] == frame["client"]),
            None)
        if row is None:
            rec["error"] = "the trace has no summary for the application"
            return rec
        app_rec["json"] = row
        rec["clients"].append(app_rec)
        rec["load"] = _loadavg()
    except OSError as e:
        rec["error"] = f"cannot run: {e}"
    finally:
        if app is not None:
            app.stop(grace=3.0)
        if running is not None:
            running.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return rec


def _loadavg():
    try:
        with open("/proc/loadavg") as f:
            return float(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


COUNTS = ("roundtrips", "requests", "events")


def metrics(rec):
    row = rec["clients"][0]["json"] if rec["clients"] else None
    if not row:
        return {}
    m = {k: row.get(k) for k, _, _ in METRICS}
    if m["connect_ms"] is not None and m["connect_ms"] < 0:
        m["connect_ms"] = None  # Xwayland, connected before the launch
    return m


def _range(cell, metric, fmt):
    vals = cell["values"].get(metric) if cell else None
    if not vals:
        return "—"
    vals = sorted(vals)
    mid = fmt(statistics.median(vals))
    if vals[0] == vals[-1]:
        return mid
    return f"{mid} [{fmt(vals[0])}–{fmt(vals[-1])}]"


def report_tables(data):
    """The report's tables: per application, medians [min–max] with the
    scheduler on and off, then the synchronous requests by name."""
    fmt = report.fmt
    cells = report.collect(sys.modules[__name__], data)
    rows = []
    for r in data["runs"]:
        if r["row"] not in rows:
            rows.append(r["row"])
    comps = [c for c in COMPOSITORS if c in data["compositors"]]
    out = ["**Startup per application** (median [min–max] over the "
        "repeats; fairway | fairway-off)", ""]
    head = ["application"]
    shown = METRICS
    for _, label, _ in shown:
        head.append(label)
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "---|" * len(head))
    for row in rows:
        line = [row]
        for metric, _, _ in shown:
            texts = []
            for comp in comps:
                cell = cells.get((row, comp))
                if cell and not cell["values"] and (cell["na"] or
                        cell["errors"]):
                    texts.append("n/a" if cell["na"] else "failed")
                else:
                    texts.append(_range(cell, metric, (lambda v: f"{v:g}")
                        if metric in COUNTS else fmt))
            line.append(" \\| ".join(texts))
        out.append("| " + " | ".join(line) + " |")
    out.append("")
    # Table 2's breakdown: which requests the application waited on.
    for comp in comps:
        out.append(f"**Round trips by request, {comp}** (median count over "
            "the repeats; the runs in which it counted any)")
        out.append("")
        out.append("| application | request | round trips | in runs |")
        out.append("|---|---|---|---|")
        for row in rows:
            runs = [r for r in data["runs"] if r["row"] == row and
                r["compositor"] == comp and r["clients"] and
                r["clients"][0]["json"]]
            names = {}
            for r in runs:
                for name in r["clients"][0]["json"]["roundtrip_requests"]:
                    names.setdefault(name, [])
            for name in names:
                counts = [r["clients"][0]["json"]["roundtrip_requests"]
                    .get(name, 0) for r in runs]
                mid = statistics.median(counts)
                some = sum(1 for c in counts if c > 0)
                out.append(f"| {row} | {name} | {mid:g} | {some} of "
                    f"{len(runs)} |")
        out.append("")
    errors = [f"{r['row']} on {r['compositor']}, repeat {r['repeat']}: "
        f"{r['error'] or r['na']}" for r in data["runs"]
        if r.get("error") or r.get("na")]
    if errors:
        out.append("Runs that measured nothing:  ")
        out += [e + "  " for e in errors]
        out.append("")
    loads = [r["load"] for r in data["runs"] if r.get("load") is not None]
    if loads:
        loads.sort()
        out.append(f"Load average (1 min) at the end of each run: median "
            f"{loads[len(loads) // 2]:.2f}, range {loads[0]:.2f}–"
            f"{loads[-1]:.2f}.")
    return "\n".join(out)
