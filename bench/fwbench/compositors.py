"""How each compositor is started: headless, pixman, one 1280x720 output,
no XWayland, with its own XDG_RUNTIME_DIR."""

import os
import shutil
import subprocess
import tempfile
import time

from .procs import Proc

ALL = ["fairway", "fairway-noframe", "fairway-off", "sway", "labwc", "cage",
    "weston"]
# Variants for A/B runs, named on request only: fairway-scene paints with
# wlr_scene's own render pass instead of fairway's direct one;
# fairway-memory and fairway-socketpair force the gate's transport to
# libwayland (see docs/architecture.md) instead of the self-test's choice;
# fairway-raised and fairway-unraised run with --raise-priority on (its
# main thread at nice -10, where privileged, never real-time) and off,
# fairway-rr with --raise-priority rr (SCHED_RR), fairway-auto with
# --raise-priority auto (SCHED_RR while others contend the CPU; the
# default since 1b2a7a3's measurements, so the same as fairway);
# fairway-before is fairway as built in $FWBENCH_BEFORE_BUILD (a build of an
# earlier commit), its clients still --build's;
# sway-rr is sway as distributions that give it CAP_SYS_NICE ship it: sway
# then runs its main thread SCHED_RR, which it cannot without the
# capability (Debian's sway has none).
EXTRA = ["fairway-scene", "fairway-memory", "fairway-socketpair",
    "fairway-raised", "fairway-unraised", "fairway-rr", "fairway-auto",
    "fairway-before", "sway-rr"]
PEERS = ["sway", "sway-rr", "labwc", "cage", "weston"]
FAIRWAY_ARGS = {
    "fairway": ["--scheduler", "on"],
    # Frame done right after each paint, paint on the frame event: the
    # frame cycle before deadline-driven frames.
    "fairway-noframe": ["--scheduler", "on", "--frame-schedule", "off"],
    "fairway-off": ["--scheduler", "off"],
    "fairway-scene": ["--scheduler", "on", "--render", "scene"],
    "fairway-memory": ["--scheduler", "on", "--gate-transport", "memory"],
    "fairway-socketpair": ["--scheduler", "on", "--gate-transport",
        "socketpair"],
    "fairway-raised": ["--scheduler", "on", "--raise-priority", "on"],
    "fairway-unraised": ["--scheduler", "on", "--raise-priority", "off"],
    "fairway-rr": ["--scheduler", "on", "--raise-priority", "rr"],
    "fairway-auto": ["--scheduler", "on", "--raise-priority", "auto"],
    "fairway-before": ["--scheduler", "on"],
}
AB_BUILD_ENV = "FWBENCH_BEFORE_BUILD"
WIDTH, HEIGHT = 1280, 720

SWAY_CONFIG = f"""# Written by bench/run: the least sway needs to be compared fairly.
xwayland disable
output HEADLESS-1 mode {WIDTH}x{HEIGHT}
"""
# Where make_sway_rr puts its copy of sway: a folder of root's, on the
# root file system (file capabilities do nothing on a nosuid mount).
SWAY_RR = "/var/lib/fairway-bench/sway-rr"


def base_env(account, runtime_dir):
    return {
        "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
        "HOME": account.home,
        "USER": account.name or os.environ.get("USER", "root"),
        "LANG": "C.UTF-8",
        "XDG_RUNTIME_DIR": runtime_dir,
        "WLR_BACKENDS": "headless",
        "WLR_RENDERER": "pixman",
        "WLR_LIBINPUT_NO_DEVICES": "1",
        "WLR_HEADLESS_OUTPUTS": "1",
    }


def version(name, build):
    if name == "fairway-before":
        build = os.environ.get(AB_BUILD_ENV, build)
    argv = {
        "fairway": [os.path.join(build, "compositor", "fairway"), "-v"],
        "sway": ["sway", "-v"],
        "labwc": ["labwc", "-v"],
        "cage": ["cage", "-v"],
        "weston": ["weston", "--version"],
    }[name.split("-")[0]]
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=10)
        return (r.stdout + r.stderr).strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return "unknown"


def fairway_help(build):
    try:
        r = subprocess.run([os.path.join(build, "compositor", "fairway"),
                "-h"], capture_output=True, text=True, timeout=10)
        return r.stdout + r.stderr
    except (OSError, subprocess.SubprocessError):
        return ""


class Running:
    """A started compositor and the folder that holds its socket."""

    def __init__(self, name, proc, runtime_dir, account, sessions=False):
        self.name = name
        self.proc = proc
        self.runtime_dir = runtime_dir
        self.account = account
        self.display = None
        # Whether its clients start in sessions of their own too.
        self.sessions = sessions

    def wait_socket(self, timeout=20.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return False
            try:
                names = os.listdir(self.runtime_dir)
            except OSError:
                names = []
            for n in sorted(names):
                if n.startswith("wayland-") and not n.endswith(".lock"):
                    self.display = n
                    return True
            time.sleep(0.02)
        return False

    def client_env(self):
        env = base_env(self.account, self.runtime_dir)
        env["WAYLAND_DISPLAY"] = self.display
        return env

    def stop(self):
        self.proc.stop(grace=5.0)
        shutil.rmtree(self.runtime_dir, ignore_errors=True)


def make_sway_rr():
    """Copies sway to SWAY_RR with CAP_SYS_NICE; returns None, or why
    sway-rr cannot run."""
    if os.geteuid() != 0:
        return "setcap needs root"
    sway = shutil.which("sway")
    folder = os.path.dirname(SWAY_RR)
    if sway is None:
        return "no sway"
    os.makedirs(folder, mode=0o755, exist_ok=True)
    if os.statvfs(folder).f_flag & os.ST_NOSUID:
        return f"{folder} is on a nosuid mount: no file capabilities"
    shutil.copy2(sway, SWAY_RR + ".new")
    r = subprocess.run(["setcap", "cap_sys_nice+ep", SWAY_RR + ".new"],
        capture_output=True, text=True)
    if r.returncode != 0:
        return "setcap failed: " + r.stderr.strip()
    os.replace(SWAY_RR + ".new", SWAY_RR)
    return None


def x_socket_dir():
    """cage and labwc open Xwayland's sockets (it starts on demand), as
    the bench's unprivileged user: that needs /tmp/.X11-unix to be what X
    servers make it, 1777. A root Xwayland (fairway's tests) under a 022
    umask can leave it 0755."""
    path = "/tmp/.X11-unix"
    if os.geteuid() == 0 and os.path.isdir(path):
        os.chmod(path, 0o1777)


def start(name, build, account, logdir, fairway_args=(), xwayland=False,
        session=False):
    runtime_dir = tempfile.mkdtemp(prefix=f"fwbench-{name}-")
    os.chmod(runtime_dir, 0o700)
    account.chown(runtime_dir)
    env = base_env(account, runtime_dir)
    if name in FAIRWAY_ARGS:
        if name == "fairway-before":
            build = os.environ.get(AB_BUILD_ENV)
            if not build:
                raise RuntimeError(f"fairway-before: set {AB_BUILD_ENV} "
                    "to the earlier build's folder")
        # No configuration file, as weston runs with --no-config: a user's
        # rules or slices must not change what the bench measures.
        argv = [os.path.join(build, "compositor", "fairway"),
                "--backend", "headless", "--config", "/dev/null",
                "--output-size", f"{WIDTH}x{HEIGHT}"]
        if not xwayland:
            argv.append("--no-xwayland")
        argv += FAIRWAY_ARGS[name] + list(fairway_args)
    elif name in ("sway", "sway-rr"):
        config = os.path.join(runtime_dir, "sway.conf")
        with open(config, "w") as f:
            f.write(SWAY_CONFIG)
        account.chown(config)
        argv = [SWAY_RR if name == "sway-rr" else "sway", "-c", config]
    elif name == "labwc":
        # A configuration folder of its own with defaults only: no user's
        # autostart, environment file or rules.
        config = os.path.join(runtime_dir, "labwc")
        os.mkdir(config)
        with open(os.path.join(config, "rc.xml"), "w") as f:
            f.write("<labwc_config/>\n")
        account.chown(config)
        account.chown(os.path.join(config, "rc.xml"))
        x_socket_dir()
        argv = ["labwc", "--config-dir", config]
    elif name == "cage":
        # cage runs one application and exits with it; a sleeper keeps it
        # up while the bench connects its own clients to its socket.
        x_socket_dir()
        argv = ["cage", "--", "sleep", "1000000"]
    elif name == "weston":
        argv = ["weston", "--backend=headless-backend.so", "--use-pixman",
                f"--width={WIDTH}", f"--height={HEIGHT}", "--idle-time=0",
                "--no-config"]
    else:
        raise ValueError(f"unknown compositor {name}")
    proc = Proc(argv, env, account, os.path.join(logdir, f"{name}.out"),
            os.path.join(logdir, f"{name}.err"), session=session)
    return Running(name, proc, runtime_dir, account, sessions=session)
