"""Runs one case of a scenario on one compositor: a fresh compositor, the
setup clients (waited for by their readiness line), the background load,
the measured clients, then a clean stop of everything."""

import json
import os
import shutil
import sys
import tempfile
import time

from . import compositors
from .procs import Proc, proc_sample, sample_delta

# Flooders have no readiness line; they get this long to connect, map
# their window and reach full speed before the measurement starts (a case
# may ask for longer with "warmup_s").
WARMUP_S = 1.0
# How much longer than --duration a measured client may take (setup under
# load, the clients' own grace for answers still in flight) before it is
# stopped and the run is marked as timed out.
TIMEOUT_EXTRA_S = 15.0
SETUP_TIMEOUT_S = 60.0


class Progress:
    def __init__(self, total_runs, duration):
        self.total = total_runs
        self.done = 0
        self.spent = 0.0
        self.guess = duration + 3.0
        self.tty = sys.stderr.isatty()
        self.current = None
        self.started = None
        self.last_plain = 0.0

    def begin(self, label):
        self.current = label
        self.started = time.monotonic()
        self.show(force=True)

    def end(self):
        self.done += 1
        self.spent += time.monotonic() - self.started

    def skip(self):
        self.done += 1

    def left_s(self):
        per_run = self.spent / self.done if self.done and self.spent else \
            self.guess
        into = time.monotonic() - self.started if self.started else 0
        return max(0.0, (self.total - self.done) * per_run - into)

    def show(self, force=False):
        left = int(self.left_s())
        line = (f"{self.current}  run {self.done + 1}/{self.total}  "
                f"~{left // 60}m{left % 60:02d}s left")
        if self.tty:
            sys.stderr.write("\r\x1b[K" + line)
            sys.stderr.flush()
        elif force or time.monotonic() - self.last_plain > 10:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()
            self.last_plain = time.monotonic()

    def finish(self):
        if self.tty:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


class Context:
    def __init__(self, build, account, duration, progress):
        self.build = build
        self.account = account
        self.duration = duration
        self.progress = progress
        # (compositor, program) -> reason, learnt from a client that said
        # the compositor lacks a protocol; later runs are n/a at once.
        self.lacks = {}
        # compositor -> reason it cannot run at all (e.g. no user for it).
        self.unavailable = {}

    def client_path(self, prog):
        return os.path.join(self.build, "clients", f"fairway-{prog}")


def _parse_json(text):
    for line in reversed(text.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                return None
    return None


def _lacks_reason(text):
    for line in text.splitlines():
        if "compositor lacks" in line:
            return line.strip()
    return None


class _Client:
    def __init__(self, ctx, running, spec, role, index, tmp, duration):
        self.spec = spec
        self.role = role
        argv = [ctx.client_path(spec["prog"])] + list(spec.get("args", []))
        argv += ["--duration", f"{duration:g}"]
        base = os.path.join(tmp, f"{role}{index}-{spec['prog']}")
        self.proc = Proc(argv, running.client_env(), running.account,
                base + ".out", base + ".err", session=running.sessions)

    def record(self):
        p = self.proc
        stderr = p.stderr_tail()
        rec = {
            "role": self.role,
            "prog": self.spec["prog"],
            "args": self.spec.get("args", []),
            "rc": p.rc,
            "timed_out": p.timed_out,
            "json": _parse_json(p.stdout_text()),
            "cpu_s": p.cpu_seconds(),
            "wall_s": round((p.ended or time.monotonic()) - p.started, 4),
        }
        if p.rc != 0 or p.timed_out:
            rec["stderr_tail"] = stderr[-600:]
        lack = _lacks_reason(stderr)
        if lack:
            rec["lacks"] = lack
        return rec


def _wait_ready(client, word, deadline, comp):
    while time.monotonic() < deadline:
        if any(line.startswith(word)
                for line in client.proc.stdout_text().splitlines()):
            return True
        if client.proc.poll() is not None or comp.poll() is not None:
            return False
        time.sleep(0.02)
    return False


def run_one(ctx, scenario, case, comp_name, repeat):
    """Returns the raw record of one run."""
    rec = {
        "scenario": scenario,
        "row": case["row"],
        "params": case.get("params", {}),
        "compositor": comp_name,
        "repeat": repeat,
        "duration_s": ctx.duration,
        "clients": [],
        "compositor_cost": None,
        "rss_kib": {},
        "error": None,
        "na": None,
    }
    if comp_name in ctx.unavailable:
        rec["na"] = ctx.unavailable[comp_name]
        return rec
    na = case.get("na", {}).get(comp_name) or case.get("na", {}).get("*")
    if na:
        rec["na"] = na
        return rec
    progs = {s["prog"] for group in ("setup", "background", "measured")
            for s in case.get(group, [])}
    for prog in sorted(progs):
        if not os.access(ctx.client_path(prog), os.X_OK):
            rec["na"] = f"fairway-{prog} is not built in {ctx.build}"
            return rec
        if (comp_name, prog) in ctx.lacks:
            rec["na"] = ctx.lacks[(comp_name, prog)]
            return rec

    fairway_args = case.get("fairway_args", [])
    if comp_name.startswith("fairway"):
        rec["fairway_args"] = fairway_args
    tmp = tempfile.mkdtemp(prefix="fwbench-run-")
    running = None
    clients = []
    duration = ctx.duration
    try:
        # "sessions": the compositor and each client in a session of its
        # own, as a desktop runs them.
        sessions = bool(case.get("sessions"))
        rec["sessions"] = sessions
        # The compositor may stay in the harness's session while its
        # clients have their own (a compositor started from a shell).
        comp_session = bool(case.get("compositor_session", sessions))
        rec["compositor_session"] = comp_session
        running = compositors.start(comp_name, ctx.build, ctx.account, tmp,
                fairway_args, session=comp_session)
        running.sessions = sessions
        comp = running.proc
        if not running.wait_socket():
            rec["error"] = ("compositor made no socket: " +
                    comp.stderr_tail(400).strip().replace("\n", " | "))
            return rec
        s_start = proc_sample(comp.pid)
        rec["rss_kib"]["start"] = s_start and s_start["rss_kib"]

        # Setup clients (idle connections) hold for the whole run and say
        # when they are in place.
        long = duration + case.get("warmup_s", WARMUP_S) + TIMEOUT_EXTRA_S + 30
        deadline = time.monotonic() + SETUP_TIMEOUT_S
        for i, spec in enumerate(case.get("setup", [])):
            c = _Client(ctx, running, spec, "setup", i, tmp, long)
            clients.append(c)
            if not _wait_ready(c, spec.get("ready", "ready"), deadline,
                    comp):
                rec["error"] = f"setup client {spec['prog']} never ready"
                return rec
        s_setup = proc_sample(comp.pid)
        rec["rss_kib"]["setup"] = s_setup and s_setup["rss_kib"]

        background = case.get("background", [])
        for i, spec in enumerate(background):
            clients.append(_Client(ctx, running, spec, "background", i, tmp,
                    long))
        if background:
            time.sleep(case.get("warmup_s", WARMUP_S))

        measured = []
        for i, spec in enumerate(case.get("measured", [])):
            c = _Client(ctx, running, spec, "measured", i, tmp, duration)
            clients.append(c)
            measured.append(c)
        deadline = time.monotonic() + duration + TIMEOUT_EXTRA_S
        while any(c.proc.poll() is None for c in measured):
            if comp.poll() is not None:
                break
            if time.monotonic() >= deadline:
                for c in measured:
                    if c.proc.poll() is None:
                        c.proc.timed_out = True
                        c.proc.stop(grace=3.0)
                break
            ctx.progress.show()
            time.sleep(0.05)

        # The background load is stopped before the last sample so that
        # the cost covers the whole workload, flood included.
        for c in clients:
            if c.role != "measured":
                c.proc.stop(grace=5.0)
        s_end = proc_sample(comp.pid)
        rec["rss_kib"]["end"] = s_end and s_end["rss_kib"]
        rec["compositor_cost"] = sample_delta(s_setup, s_end)
        if comp.poll() is not None:
            rec["error"] = (f"compositor exited ({comp.rc}) during the run: "
                    + comp.stderr_tail(400).strip().replace("\n", " | "))
    except OSError as e:
        rec["error"] = f"cannot run: {e}"
    finally:
        for c in clients:
            c.proc.stop(grace=3.0)
        if running is not None:
            running.stop()
        rec["clients"] = [c.record() for c in clients]
        shutil.rmtree(tmp, ignore_errors=True)

    for c in rec["clients"]:
        if c.get("lacks"):
            ctx.lacks[(comp_name, c["prog"])] = c["lacks"]
            rec["na"] = c["lacks"]
            rec["error"] = None
            return rec
    if rec["error"] is None:
        for c in rec["clients"]:
            if c["role"] == "measured" and c["timed_out"]:
                rec["error"] = (f"{c['prog']} timed out "
                        f"(>{duration + TIMEOUT_EXTRA_S:g} s)")
            elif c["role"] == "measured" and (c["rc"] != 0 or
                    c["json"] is None):
                tail = (c.get("stderr_tail") or "").strip().splitlines()
                rec["error"] = (f"{c['prog']} exited {c['rc']}: " +
                        (tail[-1] if tail else "no output"))
    return rec
