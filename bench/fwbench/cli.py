"""bench/run: argument parsing, the run loop and the outputs."""

import argparse
import datetime
import importlib
import json
import os
import platform
import pwd
import shlex
import signal
import subprocess
import sys

from . import compositors, report
from .procs import Account, cpu_steal, loadavg
from .runner import Context, Progress, run_one

PEER_USER = "fairway-bench"
QUICK_DURATION = 2.0


def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = loadavg()
    try:
        with open("/proc/sys/kernel/sched_autogroup_enabled") as f:
            autogroup = f.read().strip()
    except OSError:
        autogroup = "unknown"
    return {"nproc": os.cpu_count(), "kernel": platform.release(),
        "cpu": cpu, "loadavg": load, "sched_autogroup_enabled": autogroup,
        "python": platform.python_version(), "cpu_steal": cpu_steal()}


def peer_account(build):
    """The unprivileged user the peers run as (sway refuses root), or
    (None, reason)."""
    if os.geteuid() != 0:
        return Account(), None
    try:
        pw = pwd.getpwnam(PEER_USER)
    except KeyError:
        r = subprocess.run(["useradd", "-m", PEER_USER], capture_output=True,
            text=True)
        if r.returncode != 0:
            return None, f"cannot create user {PEER_USER}: {r.stderr.strip()}"
        pw = pwd.getpwnam(PEER_USER)
    account = Account(PEER_USER, pw.pw_uid, pw.pw_gid, pw.pw_dir)
    probe = os.path.join(build, "clients", "fairway-probe")
    r = subprocess.run(account.wrap(["test", "-x", probe]))
    if r.returncode != 0:
        return None, f"user {PEER_USER} cannot run {probe}"
    return account, None


def parse(argv):
    from scenarios import ORDER
    p = argparse.ArgumentParser(prog="bench/run",
        description="Runs fairway's benchmark scenarios on fairway, "
        "fairway --scheduler off, sway, labwc, cage and weston.")
    p.add_argument("scenarios", nargs="*", metavar="SCENARIO",
        help="one or more of: " + ", ".join(ORDER) + ", or all "
        "(default with --quick: all)")
    p.add_argument("--compositors", default=",".join(compositors.ALL),
        help="comma-separated subset of "
        + ",".join(compositors.ALL + compositors.EXTRA))
    p.add_argument("--duration", type=float, default=None,
        help="seconds each measured client runs (default 5; 2 with "
        "--quick)")
    p.add_argument("--repeat", type=int, default=None,
        help="repeats of every run (default 3; 1 with --quick)")
    p.add_argument("--out", default=None,
        help="output folder (default bench/results, or bench/results-quick)")
    p.add_argument("--build", default=os.environ.get("FAIRWAY_BUILD",
        "build"), help="meson build folder with compositor/fairway and "
        "clients/fairway-* (default $FAIRWAY_BUILD or build)")
    p.add_argument("--quick", action="store_true",
        help="short durations, one repeat, fewer sweep points")
    p.add_argument("--report", action="store_true",
        help="only rewrite the .md and .png from the .json in --out")
    a = p.parse_args(argv)
    if not a.scenarios:
        if not (a.quick or a.report):
            p.error("name at least one scenario (or all)")
        a.scenarios = ["all"]
    if "all" in a.scenarios:
        a.scenarios = list(ORDER)
    for s in a.scenarios:
        if s not in ORDER:
            p.error(f"unknown scenario {s}")
    a.compositors = [c for c in a.compositors.split(",") if c]
    for c in a.compositors:
        if c not in compositors.ALL + compositors.EXTRA:
            p.error(f"unknown compositor {c}")
    if a.duration is None:
        a.duration = QUICK_DURATION if a.quick else 5.0
    if a.repeat is None:
        a.repeat = 1 if a.quick else 3
    if a.duration <= 0 or a.repeat < 1:
        p.error("--duration must be > 0 and --repeat >= 1")
    if a.out is None:
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        a.out = os.path.join(here, "results-quick" if a.quick else "results")
    a.build = os.path.abspath(a.build)
    return a


def _load(name):
    return importlib.import_module(f"scenarios.{name}")


def main(argv):
    opts = parse(argv)
    os.makedirs(opts.out, exist_ok=True)
    if opts.report:
        for name in opts.scenarios:
            path = os.path.join(opts.out, f"{name}.json")
            if os.path.exists(path):
                with open(path) as f:
                    report.write(_load(name), json.load(f), opts.out)
        return 0

    fairway = os.path.join(opts.build, "compositor", "fairway")
    if not os.access(fairway, os.X_OK):
        print(f"bench/run: no fairway at {fairway}; build first or pass "
            "--build DIR", file=sys.stderr)
        return 2
    opts.fairway_help = compositors.fairway_help(opts.build)

    # Stopping the harness must still stop what it started.
    def interrupted(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, interrupted)

    peers, peer_reason = None, "not asked for"
    if any(not c.startswith("fairway") for c in opts.compositors):
        peers, peer_reason = peer_account(opts.build)
    unavailable = {}
    if "sway-rr" in opts.compositors and peers is not None:
        reason = compositors.make_sway_rr()
        if reason:
            unavailable["sway-rr"] = reason
    plan = []
    for name in opts.scenarios:
        module = _load(name)
        comps = ["fairway"] if module.FAIRWAY_ONLY else getattr(module,
            "COMPOSITORS", opts.compositors)
        left_out = [c for c in opts.compositors if c not in comps]
        if left_out:
            print(f"bench/run: {name} does not run {', '.join(left_out)}",
                file=sys.stderr)
        comps = [c for c in comps if c in opts.compositors]
        if not comps:
            continue
        plan.append((name, module, module.cases(opts), comps))
    total = sum(len(cases) * len(comps) * opts.repeat
        for _, _, cases, comps in plan)
    progress = Progress(total, opts.duration)
    ctx = Context(opts.build, Account(), opts.duration, progress)
    ctx.unavailable.update(unavailable)
    versions = {}
    for c in opts.compositors:
        versions[c] = compositors.version(c, opts.build)
    command = "bench/run " + " ".join(shlex.quote(a) for a in argv)
    failures = 0

    try:
        for name, module, cases, comps in plan:
            data = {
                "scenario": name,
                "title": module.TITLE,
                "command": command,
                "date": datetime.datetime.now().astimezone().isoformat(
                    timespec="seconds"),
                "machine": machine(),
                "duration_s": opts.duration,
                "repeat": opts.repeat,
                "compositors": comps,
                "versions": versions,
                "users": {"fairway": pwd.getpwuid(os.geteuid()).pw_name,
                    "peers": peers.name if peers and peers.name else
                    pwd.getpwuid(os.geteuid()).pw_name},
                "runs": [],
            }
            for repeat in range(1, opts.repeat + 1):
                # A scenario may change the order from round to round.
                order = getattr(module, "order", lambda c, r: c)
                for case in order(cases, repeat):
                    for comp in comps:
                        label = (f"{name}: {case['row']}  {comp}  repeat "
                            f"{repeat}/{opts.repeat}")
                        progress.begin(label)
                        if comp.startswith("fairway"):
                            ctx.account = Account()
                        elif peers is None:
                            ctx.unavailable[comp] = peer_reason
                        else:
                            ctx.account = peers
                        # A scenario may run its cases itself (startup).
                        run = getattr(module, "run", run_one)
                        rec = run(ctx, name, case, comp, repeat)
                        progress.end()
                        if rec["error"]:
                            # A peer that starves a client is a result;
                            # fairway failing is the harness's business.
                            if comp.startswith("fairway"):
                                failures += 1
                            progress.finish()
                            print(f"bench/run: {label}: {rec['error']}",
                                file=sys.stderr)
                        data["runs"].append(rec)
                        _save(data, opts.out)
            data["machine_end"] = machine()
            _save(data, opts.out)
            report.write(module, data, opts.out)
    except KeyboardInterrupt:
        progress.finish()
        print("bench/run: interrupted; partial results kept in " + opts.out,
            file=sys.stderr)
        return 130
    progress.finish()
    print(f"bench/run: results in {opts.out}"
        + (f"; {failures} fairway run(s) failed (see the .md)"
            if failures else ""),
        file=sys.stderr)
    return 1 if failures else 0


def _save(data, out):
    path = os.path.join(out, f"{data['scenario']}.json")
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1)
    os.replace(tmp, path)
