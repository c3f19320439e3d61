"""Applications used remotely, after Packard and Gettys' "X Window System
Network Performance": each application starts across a link with L ms of
one-way latency (bench/link), Wayland applications through waypipe
(`waypipe client` on fairway, `waypipe server -- APP` across the link) and
X applications through a second X display whose socket leads, across the
link, to fairway's Xwayland. The time to the first presented frame (from
fairway's trace) is set against two models. The old one: local time +
round trips x RTT, the round trips counted at fairway's end by
fairway-trace-summary (Wayland) or by the link (X). The new one counts
the waits where the application makes them, as Packard and Gettys did:
from the application's WAYLAND_DEBUG log and the link's trace (Wayland),
or the link on the X client's end, and adds the one crossing of the
commit that shows the frame: local + (waits + 1/2) x RTT + transfer."""

import glob
import json
import os
import shutil
import signal
import sys
import tempfile
import time

from fwbench import compositors, remotereport, wldebug
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
    # The same, with no client buffer integration: Qt then loads no EGL,
    # whose Mesa probes the compositor (4 round trips) and loads its
    # software driver before the window is made; widgets draw in wl_shm
    # either way.
    {"app": "qt5 application without EGL", "proto": "wayland",
        "argv": [QT_APP], "env": {"QT_QPA_PLATFORM": "wayland",
            "QT_WAYLAND_CLIENT_BUFFER_INTEGRATION": "none"}},
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
    ("roundtrips", "round trips until then, counted at fairway's end",
        "lower"),
    ("waits", "waits on the link until then, counted at the "
        "application's end", "lower"),
]
PLOTS = []


def _row(app, proto, delay):
    return f"{app} ({'X' if proto == 'x11' else 'Wayland'}) {delay:g} ms"


def cases(opts):
    # FWBENCH_REMOTE_APPS=foot,xterm: only those programs.
    only = [a for a in os.environ.get("FWBENCH_REMOTE_APPS", "").split(",")
        if a]
    # FWBENCH_REMOTE_PROTOS=wayland (or x11): only that protocol's runs.
    protos = [p for p in os.environ.get("FWBENCH_REMOTE_PROTOS",
        "").split(",") if p]
    delays = QUICK_DELAYS_MS if opts.quick else DELAYS_MS
    out = []
    apps = []
    for app in APPS:
        prog = os.path.basename(app["argv"][0])
        if protos and app["proto"] not in protos:
            continue
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


def _start_link(ctx, tmp, name, listen, connect, delay, x11, trace=None):
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
    if trace:
        argv[2:2] = ["--trace", trace]
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


def _rate():
    """The link's rate in bits/s (FWBENCH_REMOTE_RATE), or None."""
    rate = os.environ.get("FWBENCH_REMOTE_RATE")
    if not rate:
        return None
    scale = {"k": 1e3, "K": 1e3, "m": 1e6, "M": 1e6, "g": 1e9, "G": 1e9}
    mult = scale.get(rate[-1:])
    return float(rate[:-1] if mult else rate) * (mult or 1)


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


def _app_end(tmp, launched, launched_real, records, start, client,
        frame, delay):
    """The run as the application saw it, from its WAYLAND_DEBUG log and
    the link's trace: when it first spoke, its waits on the link by cause
    (bench/fwbench/wldebug.py), the commit fairway presented, how long
    that commit took to cross, and fairway's own time to present it. All
    times in ms after the launch."""
    base_us = int(launched_real * 1e6) % (1 << 32)
    try:
        with open(os.path.join(tmp, "app.err"), errors="replace") as f:
            msgs = wldebug.parse(f, base_us)
        with open(os.path.join(tmp, "link.trace")) as f:
            chunks = wldebug.read_link(f, launched)
    except OSError:
        return None
    if not msgs:
        return None
    to_ms = lambda t: (t + start["monotonic"] - launched) * 1000.0
    presented = to_ms(frame["t"])
    # The commit fairway presented: the client's last request before the
    # frame reached fairway then; the application sent it at least the
    # one-way delay before.
    reqs = [to_ms(r["t"]) for r in records if r.get("client") == client
        and r["dir"] == "request" and r["t"] <= frame["t"]]
    if not reqs:
        return None
    arrived = reqs[-1]
    commit = wldebug.last_commit(msgs, arrived - delay + 0.5)
    if commit is None:
        return None
    ws = wldebug.waits(msgs, chunks, delay, until=commit)
    causes, wait_ms, others = {}, {}, {}
    for w in ws or []:
        c = w["cause"]
        causes[c] = causes.get(c, 0) + 1
        wait_ms[c] = round(wait_ms.get(c, 0.0) + w["t1"] - w["t0"], 3)
        if c == "other":
            others[w["event"]] = others.get(w["event"], 0) + 1
        for extra in w["also"]:
            key = f"{c}+{extra}"
            others[key] = others.get(key, 0) + 1
    blocked = sum(wait_ms.values())
    # What crossed before the commit reached fairway (waypipe carries a
    # buffer's damaged pixels, uncompressed by default, ahead of the
    # commit that shows them).
    up = sum(n for t, _, d, n in chunks if d == "up" and t <= arrived - delay)
    down = sum(n for t, _, d, n in chunks if d == "down" and
        t <= arrived - delay)
    first = msgs[0]["t"]
    return {
        "first_ms": round(first, 3),
        "commit_ms": round(commit, 3),
        "waits": len(ws) if ws is not None else None,
        "causes": causes if ws is not None else None,
        "wait_ms": wait_ms if ws is not None else None,
        "other_events": others,
        "blocked_ms": round(blocked, 3) if ws is not None else None,
        "own_ms": round(commit - first - blocked, 3),
        "cross_ms": round(arrived - commit, 3),
        "compositor_ms": round(presented - arrived, 3),
        "bytes_up": up,
        "bytes_down": down,
        "connections": len({c for _, c, d, _ in chunks if d == "open"}),
    }


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
            link_trace = os.path.join(tmp, "link.trace")
            link, _ = _start_link(ctx, tmp, "link", server_sock, client_sock,
                delay, False, trace=link_trace)
            # libwayland in the application logs each message it sends and
            # each event it dispatches, timed: the waits at its own end.
            env["WAYLAND_DEBUG"] = "client"
            procs.append(link)
            # FWBENCH_REMOTE_WRAP="strace -f -tt -o {tmp}/wrap.strace": a
            # command the application runs under, for a closer look; what
            # it writes to {tmp}/wrap* is kept with FWBENCH_REMOTE_KEEP.
            wrap = [a.format(tmp=tmp) for a in
                os.environ.get("FWBENCH_REMOTE_WRAP", "").split()]
            argv = ["waypipe", "--no-gpu", "--socket", server_sock,
                "server", "--"] + wrap + [a.format(tmp=tmp)
                for a in case["argv"]]
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
        launched_real = time.clock_gettime(time.CLOCK_REALTIME)
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
            for extra in glob.glob(os.path.join(tmp, "wrap*")):
                shutil.copy(extra, stem + "." + os.path.basename(extra))
            if proto == "wayland":
                shutil.copy(link_trace, stem + ".link")
                shutil.copy(os.path.join(tmp, "app.err"), stem + ".wldebug")
            with open(stem + ".launched", "w") as f:
                f.write(f"{launched} {launched_real}\n")
        tool = startup._load_summary_tool()
        rows = tool.summarize(records, startup=True, launched=launched_t)
        row = next((r for r in rows if r["client"] == frame["client"]),
            None)
        if row is None:
            rec["error"] = "the trace has no summary for the application"
            return rec
        out = {"startup_ms": row["startup_ms"], "delay_ms": delay,
            "rate_bps": _rate(), "trace": row}
        # Xwayland's connection was there before the X client's launch.
        out["connect_ms"] = row["connect_ms"] if proto == "wayland" else None
        if proto == "wayland":
            out["roundtrips"] = row["roundtrips"]
            out["roundtrip_requests"] = row["roundtrip_requests"]
            end = _app_end(tmp, launched, launched_real, records, start,
                frame["client"], frame, delay)
            if end is None:
                rec["error"] = ("no WAYLAND_DEBUG log or link trace to "
                    "count the application's waits")
                return rec
            out["app"] = end
            out["waits"] = end["waits"]
        else:
            x = _x_trips(log, launched, first_mono)
            if x is None:
                rec["error"] = "the link saw no X connection"
                return rec
            out["x11"] = x
            out["roundtrips"] = x["roundtrips"]
            out["roundtrip_requests"] = x["roundtrip_requests"]
            # At the client's end already: its replies and the events it
            # stalled on.
            out["waits"] = (x["roundtrips"] + x["event_waits"]
                if delay > 0 else None)
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


# The report (bench/fwbench/remotereport.py): per application and protocol,
# both models against the runs, the waits by cause, where the time went.

def report_tables(data):
    return remotereport.tables(data)


def report_plots(data, out_dir):
    return remotereport.plots(data, out_dir)
