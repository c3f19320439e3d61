"""Applications used remotely, after Packard and Gettys' "X Window System
Network Performance": each application starts across a link with L ms of
one-way latency (bench/link), Wayland applications through waypipe
(`waypipe client` on fairway, `waypipe server -- APP` across the link) and
X applications through a second X display whose socket leads, across the
link, to fairway's Xwayland. The time to the first presented frame (from
fairway's trace) is set against the model local time + round trips x RTT,
with the round trips counted on the same run: by fairway-trace-summary for
Wayland, by the link itself for X (the trace sees only Xwayland's own
Wayland connection, not the X client's)."""

import bisect
import glob
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

from fwbench import compositors, report
from fwbench.procs import Proc

from scenarios import startup

TITLE = ("remote: applications over a link with latency, Wayland through "
    "waypipe and X through Xwayland (Packard-Gettys)")
FAIRWAY_ONLY = True
ROW_LABEL = "application"
UNTIMED = True

DELAYS_MS = [0, 2, 10, 25, 50]
QUICK_DELAYS_MS = [0, 10, 50]
FIRST_FRAME_TIMEOUT_S = 40.0
READY_TIMEOUT_S = 20.0
# Free X display numbers for the link's socket are sought from here up, far
# above the ones Xwayland and Xvfb take (from 0), and claimed with a lock
# file as an X server claims its own.
X_DISPLAY_BASE = 60

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = os.path.join(HERE, "link")


def _qt_example():
    found = sorted(glob.glob(
        "/usr/lib/*/qt5/examples/widgets/mainwindows/application/application"))
    return found[0] if found else "qt5-application-example"


QT_APP = _qt_example()

# proto "wayland": through waypipe; "x11": through the X socket link.
APPS = [
    {"app": "foot", "proto": "wayland", "argv": ["foot"]},
    {"app": "weston-terminal", "proto": "wayland",
        "argv": ["weston-terminal"]},
    {"app": "gtk3-demo", "proto": "wayland", "argv": ["gtk3-demo"],
        "env": {"GDK_BACKEND": "wayland"}},
    # GTK 4 has no GL headless here: its cairo renderer draws in memory.
    {"app": "gtk4-demo", "proto": "wayland", "argv": ["gtk4-demo"],
        "env": {"GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo"}},
    # Qt 5's "application" example: a main window with menus, a tool bar
    # and a text editor (qtbase5-examples), on its Wayland platform.
    {"app": "qt5 application", "proto": "wayland", "argv": [QT_APP],
        "env": {"QT_QPA_PLATFORM": "wayland"}},
    {"app": "firefox-esr", "proto": "wayland", "argv": ["firefox-esr",
        "--no-remote", "--profile", "{tmp}/profile", "about:blank"],
        "env": {"MOZ_ENABLE_WAYLAND": "1", "GDK_BACKEND": "wayland"},
        "opt_in": True},
    {"app": "xterm", "proto": "x11", "argv": ["xterm"]},
    {"app": "gtk3-demo", "proto": "x11", "argv": ["gtk3-demo"],
        "env": {"GDK_BACKEND": "x11"}},
    {"app": "qt5 application", "proto": "x11", "argv": [QT_APP],
        "env": {"QT_QPA_PLATFORM": "xcb"}},
]

METRICS = [
    ("startup_ms", "launch to first presented frame (ms)", "lower"),
    ("roundtrips", "round trips until then", "lower"),
    ("waits", "waits on other events until then", "lower"),
]
PLOTS = []


def _row(app, proto, delay):
    return f"{app} ({'X' if proto == 'x11' else 'Wayland'}) {delay:g} ms"


def cases(opts):
    # FWBENCH_REMOTE_APPS=foot,xterm: only those programs.
    only = [a for a in os.environ.get("FWBENCH_REMOTE_APPS", "").split(",")
        if a]
    delays = QUICK_DELAYS_MS if opts.quick else DELAYS_MS
    out = []
    apps = []
    for app in APPS:
        prog = os.path.basename(app["argv"][0])
        if only and prog not in only and app["app"] not in only:
            continue
        # firefox-esr (300 MB, not in scripts/deps) runs when named.
        if app.get("opt_in") and not (prog in only or app["app"] in only):
            continue
        apps.append(app)
    # Latencies alternate with applications inside each round: the cases
    # run by latency, every application at each, so that neighbouring runs
    # differ; order() reverses every other round.
    for delay in delays:
        for app in apps:
            case = dict(app)
            case["row"] = _row(app["app"], app["proto"], delay)
            case["params"] = {"app": app["app"], "proto": app["proto"],
                "delay_ms": delay}
            needed = [app["argv"][0]] + (["waypipe"] if app["proto"] ==
                "wayland" else ["xdpyinfo", "Xwayland"])
            for prog in needed:
                if shutil.which(prog) is None:
                    case["na"] = {"*": f"{prog} is not installed "
                        "(scripts/deps --bench)"}
                    break
            out.append(case)
    return out


def order(cases, repeat):
    """ABBA: every other round runs backwards, so a drift in the machine's
    load weighs on every latency alike."""
    return cases if repeat % 2 else list(reversed(cases))


def _env_for(case, tmp, base):
    env = {k: v for k, v in base.items() if k not in ("WAYLAND_DISPLAY",
        "DISPLAY")}
    env["XDG_CONFIG_HOME"] = os.path.join(tmp, "config")
    env["NO_AT_BRIDGE"] = "1"
    for k, v in case.get("env", {}).items():
        env[k] = v.format(tmp=tmp)
    return env


def _wait_for(pred, deadline, procs=()):
    while time.monotonic() < deadline:
        if pred():
            return True
        if any(p.poll() is not None for p in procs):
            return False
        time.sleep(0.01)
    return False


def _start_link(ctx, tmp, name, listen, connect, delay, x11):
    """bench/link, reniced when we may: it is the network, which the
    machine's other work must not slow (Packard and Gettys ran their
    capture at nice -20)."""
    argv = [sys.executable, LINK, "--delay", f"{delay:g}", listen, connect]
    rate = os.environ.get("FWBENCH_REMOTE_RATE")
    if rate:
        argv[2:2] = ["--rate", rate]
    log = None
    if x11:
        log = os.path.join(tmp, f"{name}.log")
        argv[2:2] = ["--x11", "--log", log]
    if os.geteuid() == 0:
        argv = ["nice", "-n", "-10"] + argv
    out = os.path.join(tmp, f"{name}.out")
    proc = Proc(argv, dict(os.environ), ctx.account, out,
        os.path.join(tmp, f"{name}.err"))

    def ready():
        try:
            with open(out) as f:
                return "ready" in f.read()
        except OSError:
            return False
    if not _wait_for(ready, time.monotonic() + READY_TIMEOUT_S, [proc]):
        proc.stop(grace=1.0)
        raise RuntimeError("bench/link never became ready: "
            + proc.stderr_tail(300).strip())
    return proc, log


def _claim_x_display():
    """A free display number: its lock file made with O_EXCL, as X servers
    do, so that no Xwayland started meanwhile takes it."""
    for n in range(X_DISPLAY_BASE, X_DISPLAY_BASE + 200):
        sock = f"/tmp/.X11-unix/X{n}"
        lock = f"/tmp/.X{n}-lock"
        if os.path.exists(sock):
            continue
        try:
            fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
        except FileExistsError:
            continue
        os.write(fd, f"{os.getpid():10d}\n".encode())
        os.close(fd)
        return n, sock, lock
    raise RuntimeError("no free X display number for the link")


def _x_socket(display):
    return "/tmp/.X11-unix/X" + display.lstrip(":").split(".")[0]


def _mapped(log):
    """CLOCK_MONOTONIC time of the X client's first MapWindow, from the
    link's log, or None."""
    try:
        with open(log) as f:
            for line in f:
                if '"mapped": ' in line and '"requests"' not in line:
                    return json.loads(line)["mapped"]
    except (OSError, ValueError):
        pass
    return None


def _first_frame(records, launched_t, proto, mapped_t=None):
    """The first presented record after the launch of a client that
    connected after it (waypipe's connection), or of Xwayland after the
    X client mapped a window (Xwayland also shows other X clients': a
    client of the machine's other X users may find this display)."""
    start = next((r for r in records if r["dir"] == "start"), None)
    if start is None:
        return None
    xwayland = {r.get("client") for r in records
        if r["dir"] == "pid" and r.get("comm") == "Xwayland"}
    fresh = {r.get("client") for r in records
        if r["dir"] == "connect" and r["t"] >= launched_t}
    for r in records:
        if r["dir"] != "presented" or r["t"] < launched_t:
            continue
        if proto == "wayland" and r.get("client") in fresh:
            return r
        if proto == "x11" and mapped_t is not None and \
                r["t"] >= mapped_t and (r.get("client") in xwayland or
                r["pid"] == start["pid"]):
            return r
    return None


def link_waits(records, client, start, stop, rtt):
    """Where a client's requests waited on the link, read off fairway's
    trace: each request that reached fairway at least 0.9 RTT after the
    one before, with events sent to the client that can have caused it:
    sent after the RTT before that earlier request (which the client sent
    before it could have seen them) and at least 0.9 RTT before this one.
    The last flush of such events is taken as the cause. It is an answer
    when fairway had queued one of them as the answer to a request (the
    round trips of fairway-trace-summary, and answers the client sent more
    requests after and then stalled on); otherwise a wait on another event
    (a configure, a frame callback): named object@id.opcode. A gap with no
    such event is the client's own time. A heuristic: a client busy for
    longer than a round trip after an answer is counted as waiting on it."""
    if rtt <= 0:
        return None
    answers = set()
    arrivals = []
    events = []
    for r in records:
        if r.get("client") != client or r["t"] < start or r["t"] > stop:
            continue
        if r["dir"] == "request":
            arrivals.append(r["t"])
        elif r["dir"] == "reply":
            answers.add((r["object"], r["opcode"]))
        elif r["dir"] == "event":
            key = (r["object"], r["opcode"])
            events.append((r["t"], key, key in answers))
            answers.discard(key)
    times = [e[0] for e in events]
    out = {"answer": 0, "event": 0, "own": 0, "events": {}}
    for k in range(1, len(arrivals)):
        a0, a1 = arrivals[k - 1], arrivals[k]
        if a1 - a0 < 0.9 * rtt:
            continue
        lo = bisect.bisect_right(times, a0 - rtt)
        hi = bisect.bisect_right(times, a1 - 0.9 * rtt)
        sent = events[lo:hi]
        # The cause is in the last flush: the events sent together last.
        flush = [e for e in sent if e[0] >= sent[-1][0] - 0.001] \
            if sent else []
        if not flush:
            out["own"] += 1
        elif any(e[2] for e in flush):
            out["answer"] += 1
        else:
            out["event"] += 1
            # wl_display.delete_id rides along with other events.
            named = [e for e in flush if e[1][0] != 1] or flush
            name = "+".join(dict.fromkeys(f"@{e[1][0]}.{e[1][1]}"
                for e in named))
            out["events"][name] = out["events"].get(name, 0) + 1
    return out


def _x_trips(log, launched, first_mono):
    """The X client's connections opened after the launch, from the link's
    log, counted until the first frame."""
    conns = []
    try:
        with open(log) as f:
            for line in f:
                try:
                    c = json.loads(line)
                except ValueError:
                    continue
                if "requests" in c:
                    conns.append(c)
    except OSError:
        return None
    conns = [c for c in conns if c["opened"] >= launched]
    if not conns:
        return None
    trips = [t for c in conns for t in c["trips"] if t[1] <= first_mono]
    waits = [w for c in conns for w in c["waits"] if w[0] <= first_mono]
    by = {}
    for t in trips:
        by[t[2]] = by.get(t[2], 0) + 1
    wait_names = {}
    for w in waits:
        wait_names[w[1]] = wait_names.get(w[1], 0) + 1
    return {
        "connections": len(conns),
        "roundtrips": len(trips),
        "blocked_ms": round(sum(t[1] - t[0] for t in trips) * 1e3, 3),
        "roundtrip_requests": dict(sorted(by.items(), key=lambda kv: -kv[1])),
        "event_waits": len(waits),
        "event_wait_names": wait_names,
        "requests": sum(c["requests"] for c in conns),
        "replies": sum(c["replies"] for c in conns),
        "events": sum(c["events"] for c in conns),
        "bytes_up": sum(c["bytes_up"] for c in conns),
        "bytes_down": sum(c["bytes_down"] for c in conns),
    }


# (application, protocol) already started once in this bench/run.
_warmed = set()


def run(ctx, scenario, case, comp_name, repeat):
    key = (case.get("app"), case.get("proto"))
    if key not in _warmed and not case.get("na"):
        # A first start reads the program and its fonts from disk and
        # builds caches; it would land on whichever delay comes first.
        _warmed.add(key)
        warm = dict(case, params=dict(case["params"], delay_ms=0))
        _run(ctx, scenario, warm, comp_name, 0)
    return _run(ctx, scenario, case, comp_name, repeat)


def _run(ctx, scenario, case, comp_name, repeat):
    rec = {"scenario": scenario, "row": case["row"],
        "params": case.get("params", {}), "compositor": comp_name,
        "repeat": repeat, "duration_s": ctx.duration, "clients": [],
        "compositor_cost": None, "rss_kib": {}, "error": None, "na": None}
    na = case.get("na", {}).get(comp_name) or case.get("na", {}).get("*")
    if na:
        rec["na"] = na
        return rec
    proto = case["proto"]
    delay = case["params"]["delay_ms"]
    tmp = tempfile.mkdtemp(prefix="fwbench-remote-")
    trace = os.path.join(tmp, "trace")
    running = app = link = wpc = None
    lock = None
    procs = []
    try:
        running = compositors.start(comp_name, ctx.build, ctx.account, tmp,
            ["--trace", trace], xwayland=(proto == "x11"))
        comp = running.proc
        if not running.wait_socket():
            rec["error"] = ("compositor made no socket: " +
                comp.stderr_tail(400).strip().replace("\n", " | "))
            return rec
        local_env = running.client_env()
        remote_run = os.path.join(tmp, "remote-run")
        os.mkdir(remote_run, 0o700)
        ctx.account.chown(remote_run)
        env = _env_for(case, tmp, local_env)
        if proto == "wayland":
            env["XDG_RUNTIME_DIR"] = remote_run
            client_sock = os.path.join(tmp, "waypipe-client.sock")
            server_sock = os.path.join(tmp, "waypipe-server.sock")
            wpc = Proc(["waypipe", "--no-gpu", "--socket", client_sock,
                "client"], local_env, ctx.account,
                os.path.join(tmp, "wpc.out"), os.path.join(tmp, "wpc.err"))
            procs.append(wpc)
            if not _wait_for(lambda: os.path.exists(client_sock),
                    time.monotonic() + READY_TIMEOUT_S, [wpc]):
                rec["error"] = "waypipe client made no socket: " + \
                    wpc.stderr_tail(300).strip()
                return rec
            link, _ = _start_link(ctx, tmp, "link", server_sock, client_sock,
                delay, False)
            procs.append(link)
            argv = ["waypipe", "--no-gpu", "--socket", server_sock,
                "server", "--"] + [a.format(tmp=tmp) for a in case["argv"]]
            log = None
        else:
            display = startup._display(os.path.join(tmp,
                f"{comp_name}.out"), time.monotonic() + READY_TIMEOUT_S)
            if display is None:
                rec["error"] = "fairway announced no DISPLAY"
                return rec
            warm_env = dict(local_env, DISPLAY=display)
            warm = Proc(["xdpyinfo"], warm_env, ctx.account,
                os.path.join(tmp, "xdpyinfo.out"),
                os.path.join(tmp, "xdpyinfo.err"))
            if warm.wait(READY_TIMEOUT_S) != 0:
                warm.stop(grace=1.0)
                rec["error"] = "xdpyinfo never reached Xwayland"
                return rec
            number, sock, lock = _claim_x_display()
            link, log = _start_link(ctx, tmp, "link", sock,
                _x_socket(display), delay, True)
            procs.append(link)
            env["DISPLAY"] = f":{number}"
            argv = [a.format(tmp=tmp) for a in case["argv"]]
        start = next((r for r in startup._records(trace)
            if r["dir"] == "start"), None)
        if start is None:
            rec["error"] = "the trace has no start record"
            return rec
        launched = time.monotonic()
        app = Proc(argv, env, ctx.account, os.path.join(tmp, "app.out"),
            os.path.join(tmp, "app.err"))
        launched_t = launched - start["monotonic"]
        deadline = launched + FIRST_FRAME_TIMEOUT_S
        frame = None
        while frame is None and time.monotonic() < deadline:
            if app.poll() is not None or comp.poll() is not None:
                break
            time.sleep(0.005)
            mapped_t = None
            if proto == "x11":
                mapped = _mapped(log)
                if mapped is None:
                    continue
                mapped_t = mapped - start["monotonic"]
            frame = _first_frame(startup._records(trace), launched_t, proto,
                mapped_t)
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
        first_mono = frame["t"] + start["monotonic"]
        # The link writes an X connection's line when it closes.
        link.signal_group(signal.SIGTERM)
        link.wait(5.0)
        for p in procs:
            p.stop(grace=3.0)
        running.stop()
        running = None
        records = list(startup._records(trace))
        keep = os.environ.get("FWBENCH_REMOTE_KEEP")
        if keep:
            # The trace and the link's log of every run, for a closer look.
            os.makedirs(keep, exist_ok=True)
            stem = os.path.join(keep, case["row"].replace(" ", "_")
                .replace("(", "").replace(")", "") + f"-{repeat}")
            shutil.copy(trace, stem + ".trace")
            if log:
                shutil.copy(log, stem + ".x11.log")
            with open(stem + ".launched", "w") as f:
                f.write(f"{launched}\n")
        tool = startup._load_summary_tool()
        rows = tool.summarize(records, startup=True, launched=launched_t)
        row = next((r for r in rows if r["client"] == frame["client"]),
            None)
        if row is None:
            rec["error"] = "the trace has no summary for the application"
            return rec
        out = {"startup_ms": row["startup_ms"], "delay_ms": delay,
            "trace": row}
        # Xwayland's connection was there before the X client's launch.
        out["connect_ms"] = row["connect_ms"] if proto == "wayland" else None
        if proto == "wayland":
            out["roundtrips"] = row["roundtrips"]
            out["roundtrip_requests"] = row["roundtrip_requests"]
            w = link_waits(records, frame["client"],
                max(launched_t, row["connected_s"]), frame["t"],
                2 * delay / 1000.0)
            out["link_waits"] = w
            # Answers the summary's rule did not count, then stalled on.
            out["waits"] = (w["event"] + max(0, w["answer"] -
                row["roundtrips"])) if w else None
        else:
            x = _x_trips(log, launched, first_mono)
            if x is None:
                rec["error"] = "the link saw no X connection"
                return rec
            out["x11"] = x
            out["roundtrips"] = x["roundtrips"]
            out["roundtrip_requests"] = x["roundtrip_requests"]
            out["waits"] = x["event_waits"] if delay > 0 else None
        app_rec["json"] = out
        rec["clients"].append(app_rec)
        rec["load"] = startup._loadavg()
    except (OSError, RuntimeError) as e:
        rec["error"] = f"cannot run: {e}"
    finally:
        if app is not None:
            app.stop(grace=3.0)
        for p in procs:
            p.stop(grace=3.0)
        if running is not None:
            running.stop()
        if lock is not None:
            try:
                os.unlink(lock)
            except OSError:
                pass
        shutil.rmtree(tmp, ignore_errors=True)
    return rec


def metrics(rec):
    row = rec["clients"][0]["json"] if rec["clients"] else None
    if not row:
        return {}
    return {k: row.get(k) for k, _, _ in METRICS}


# The report: per application and protocol, the model against the runs.

def _apps(data):
    seen = []
    for r in data["runs"]:
        key = (r["params"]["app"], r["params"]["proto"])
        if key not in seen:
            seen.append(key)
    return seen


def _delays(data):
    return sorted({r["params"]["delay_ms"] for r in data["runs"]})


def _good(data, app, proto, delay=None):
    return [r["clients"][0]["json"] for r in data["runs"]
        if r["params"]["app"] == app and r["params"]["proto"] == proto and
        (delay is None or r["params"]["delay_ms"] == delay) and
        not r.get("error") and not r.get("na") and r["clients"] and
        r["clients"][0]["json"]]


def _med(vals):
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None


def _slope(points):
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


def model(data):
    """Per (app, proto): local time, and per delay the medians of the
    measured time, of the prediction and of its error."""
    out = {}
    for app, proto in _apps(data):
        local = _med([j["startup_ms"] for j in _good(data, app, proto, 0)])
        m = {"local_ms": local, "delays": {}, "slope": None}
        points = []
        for delay in _delays(data):
            runs = _good(data, app, proto, delay)
            if not runs:
                continue
            rtt = 2 * delay
            meas = [j["startup_ms"] for j in runs]
            trips = [j["roundtrips"] for j in runs]
            waits = [j.get("waits") or 0 for j in runs]
            points += [(rtt, v) for v in meas]
            d = {"n": len(runs), "measured": _med(meas),
                "min": min(meas), "max": max(meas),
                "roundtrips": _med(trips), "rt_min": min(trips),
                "rt_max": max(trips),
                "waits": _med([j.get("waits") for j in runs]),
                "connect": _med([j.get("connect_ms") for j in runs])}
            if local is not None:
                pred = [local + t * rtt for t in trips]
                err = [v - p for v, p in zip(meas, pred)]
                # The model with the link's whole critical path: every
                # wait on an event is a round trip too, and the first
                # request crosses once on its way in.
                full = [local + (t + w) * rtt + delay
                    for t, w in zip(trips, waits)]
                d["predicted"] = _med(pred)
                d["error"] = _med(err)
                d["error_pct"] = (100.0 * d["error"] / d["predicted"]
                    if d["predicted"] else None)
                d["predicted_full"] = _med(full)
                d["error_full"] = _med([v - p for v, p in zip(meas, full)])
            m["delays"][delay] = d
        m["slope"] = _slope(points)
        out[(app, proto)] = m
    return out


def _f(v, digits=0):
    if v is None:
        return "—"
    return f"{v:.{digits}f}"


def report_tables(data):
    res = model(data)
    delays = _delays(data)
    out = ["**Time to the first presented frame against the model** "
        "(medians over the repeats; RTT = 2 x the one-way delay L; "
        "model: local time (L = 0) + round trips x RTT, the round trips "
        "counted on each run; error = measured - predicted)", ""]
    head = ["application", "protocol", "round trips"] + \
        [f"{d:g} ms" for d in delays] + ["effective round trips (slope)"]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "---|" * len(head))
    for (app, proto), m in res.items():
        trips = sorted({d["roundtrips"] for d in m["delays"].values()
            if d["roundtrips"] is not None})
        tt = "–".join(f"{t:g}" for t in (trips[:1] + trips[-1:]
            if len(trips) > 1 else trips))
        line = [app, "X" if proto == "x11" else "Wayland", tt or "—"]
        for delay in delays:
            d = m["delays"].get(delay)
            if d is None:
                line.append("—")
                continue
            cell = f"{_f(d['measured'])} [{_f(d['min'])}–{_f(d['max'])}]"
            if delay:
                cell += (f"; pred {_f(d.get('predicted'))}, err "
                    f"{_f(d.get('error'))}")
            line.append(cell)
        line.append(_f(m["slope"], 1))
        out.append("| " + " | ".join(line) + " |")
    out.append("")
    out.append("**Where the model misses** (at each delay: the round trips "
        "counted, the waits on other events the trace shows, and the "
        "model with them: local + (round trips + waits) x RTT + L)")
    out.append("")
    out.append("| application | protocol | delay (ms) | round trips "
        "[range] | waits on events | predicted | full model | measured | "
        "error | error, full model | launch to connection (ms) |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for (app, proto), m in res.items():
        for delay, d in m["delays"].items():
            out.append(f"| {app} | {'X' if proto == 'x11' else 'Wayland'} "
                f"| {delay:g} | {d['roundtrips']:g} [{d['rt_min']}–"
                f"{d['rt_max']}] | {_f(d['waits'], 1)} | "
                f"{_f(d.get('predicted'))} | {_f(d.get('predicted_full'))} "
                f"| {_f(d['measured'])} | {_f(d.get('error'))} | "
                f"{_f(d.get('error_full'))} | {_f(d.get('connect'))} |")
    out.append("")
    out.append("**Round trips by request, and the events waited for** "
        "(at the largest delay; counts summed over its runs)")
    out.append("")
    out.append("| application | protocol | round trips by request | "
        "waits on events |")
    out.append("|---|---|---|---|")
    top = delays[-1] if delays else None
    for app, proto in _apps(data):
        runs = _good(data, app, proto, top)
        by, ev = {}, {}
        for j in runs:
            for k, v in (j.get("roundtrip_requests") or {}).items():
                by[k] = by.get(k, 0) + v
            names = (j.get("x11") or {}).get("event_wait_names") or \
                (j.get("link_waits") or {}).get("events") or {}
            for k, v in names.items():
                ev[k] = ev.get(k, 0) + v
        fmt = lambda d: ", ".join(f"{k} {v}" for k, v in
            sorted(d.items(), key=lambda kv: -kv[1])) or "—"
        out.append(f"| {app} | {'X' if proto == 'x11' else 'Wayland'} | "
            f"{fmt(by)} ({len(runs)} runs) | {fmt(ev)} |")
    out.append("")
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


def report_plots(data, out_dir):
    """One PNG per protocol: time to first frame against the one-way
    delay, a line per application, and its model dashed."""
    made = []
    gnuplot = shutil.which("gnuplot")
    if gnuplot is None:
        return made
    res = model(data)
    plot_dir = os.path.join(out_dir, "plot-data")
    os.makedirs(plot_dir, exist_ok=True)
    for proto, word in (("wayland", "Wayland (waypipe)"),
            ("x11", "X (Xwayland)")):
        apps = [(a, p) for a, p in res if p == proto]
        if not apps:
            continue
        stem = f"remote-{proto}"
        dat = os.path.join(plot_dir, stem + ".dat")
        delays = _delays(data)
        with open(dat, "w") as f:
            f.write("# delay_ms " + " ".join(
                f"'{a}' '{a} model'" for a, _ in apps) + "\n")
            for delay in delays:
                vals = []
                for key in apps:
                    d = res[key]["delays"].get(delay) or {}
                    vals += [d.get("measured"), d.get("predicted")]
                f.write(f"{delay} " + " ".join("NaN" if v is None else
                    f"{v:.3f}" for v in vals) + "\n")
        png = stem + ".png"
        title = (f"time to first frame over a slow link, {word}; "
            "dashed: local + round trips x RTT")
        script = [
            "set terminal pngcairo size 900,560 noenhanced",
            f"set output '{os.path.join(out_dir, png)}'",
            f"set title '{title}'",
            "set xlabel 'one-way latency L (ms); RTT = 2L'",
            "set ylabel 'launch to first presented frame (ms)'",
            "set datafile missing 'NaN'",
            "set key top left",
            "set grid",
        ]
        parts = []
        for i, (app, _) in enumerate(apps):
            parts.append(f"'{dat}' using 1:{2 * i + 2} with linespoints "
                f"lw 2 pt 7 lc {i + 1} title '{app}'")
            parts.append(f"'{dat}' using 1:{2 * i + 3} with lines dt 2 "
                f"lc {i + 1} notitle")
        script.append("plot " + ", ".join(parts))
        r = subprocess.run([gnuplot], input="\n".join(script) + "\n",
            text=True, capture_output=True)
        if r.returncode == 0:
            made.append((png, title))
    return made
