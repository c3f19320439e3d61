"""Processes for the bench: spawn as a chosen user in their own process
group, reap with wait4 (for the client's own CPU time), stop cleanly, and
read a compositor's cost from /proc."""

import os
import resource
import signal
import subprocess
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")


def _raise_nofile():
    # 500 idle clients need more than the usual 1024 descriptors in the
    # compositor (fairway holds two per client); every compositor and
    # client gets the same higher limit so the comparison stays fair.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Account:
    """Who a process runs as. uid None means the harness's own user."""

    def __init__(self, name=None, uid=None, gid=None, home=None):
        self.name = name
        self.uid = uid
        self.gid = gid
        self.home = home or os.environ.get("HOME", "/")

    def wrap(self, argv):
        if self.uid is None or self.uid == os.geteuid():
            return list(argv)
        # setpriv execs the command itself (runuser would fork and keep a
        # parent in between), so the pid we hold is the program's own.
        return ["setpriv", f"--reuid={self.uid}", f"--regid={self.gid}",
                "--init-groups", "--"] + list(argv)

    def chown(self, path):
        if self.uid is not None and os.geteuid() == 0:
            os.chown(path, self.uid, self.gid)


class Proc:
    def __init__(self, argv, env, account, stdout_path, stderr_path,
            session=False):
        """session: in a session (so, with autogroups, a task group) of its
        own, as a display manager starts a compositor and a desktop its
        applications; else in a process group of its own, in the bench's
        session."""
        self.argv = list(argv)
        self.stdout_path = stdout_path
        self.stderr_path = stderr_path
        self.rc = None
        self.rusage = None
        self.started = time.monotonic()
        self.ended = None
        self.timed_out = False
        with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
            self.popen = subprocess.Popen(account.wrap(argv), env=env,
                    stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                    preexec_fn=_raise_nofile, start_new_session=session,
                    process_group=None if session else 0)
        self.pid = self.popen.pid

    def poll(self):
        if self.rc is None:
            try:
                pid, status, usage = os.wait4(self.pid, os.WNOHANG)
            except ChildProcessError:
                pid, status, usage = self.pid, 0, None
            if pid == self.pid:
                self.rc = os.waitstatus_to_exitcode(status)
                self.rusage = usage
                self.ended = time.monotonic()
                # Popen must not reap it again.
                self.popen.returncode = self.rc
        return self.rc

    def wait(self, timeout):
        deadline = time.monotonic() + timeout
        while self.poll() is None:
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.02)
        return self.rc

    def signal_group(self, sig):
        try:
            os.killpg(self.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def signal_strays(self, pids, sig):
        for pid in pids:
            try:
                os.kill(pid, sig)
            except (ProcessLookupError, PermissionError):
                pass

    def stop(self, grace=5.0):
        """SIGTERM the process group, SIGKILL after grace, then make sure
        nothing of the group is left (helpers such as cage's child).
        Children that left the group (fairway-stress --sessions' workers,
        each in a session of its own) get the same signals: the parent
        waits for their reports and would otherwise sit out the grace."""
        strays = []
        if self.poll() is None:
            strays = children_elsewhere(self.pid)
            self.signal_group(signal.SIGTERM)
            self.signal_strays(strays, signal.SIGTERM)
            if self.wait(grace) is None:
                self.signal_group(signal.SIGKILL)
                self.signal_strays(strays, signal.SIGKILL)
                self.wait(5.0)
        self.signal_group(signal.SIGKILL)
        return self.rc

    def stdout_text(self):
        try:
            with open(self.stdout_path, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def stderr_tail(self, limit=2000):
        try:
            with open(self.stderr_path, "rb") as f:
                f.seek(0, os.SEEK_END)
                size = f.tell()
                f.seek(max(0, size - limit))
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def cpu_seconds(self):
        if self.rusage is None:
            return None
        return self.rusage.ru_utime + self.rusage.ru_stime


def children_elsewhere(pid):
    """The children of pid outside its process group."""
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
            fields = stat[stat.rindex(")") + 2:].split()
            if int(fields[1]) == pid and int(fields[2]) != pid:
                out.append(int(name))
        except (OSError, ValueError, IndexError):
            pass  # gone meanwhile
    return out


def loadavg():
    """The 1, 5 and 15 minute load averages, as /proc gives them."""
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def cpu_steal():
    """(stolen, total) CPU time of the whole machine so far, in clock
    ticks, from /proc/stat; (0, 0) where it cannot be read. Stolen time
    is time a virtual machine's host gave to someone else while one of
    our CPUs had work: a wakeup sent to such a CPU waits for all of it."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return (0, 0)
    # user nice system idle iowait irq softirq steal (guest time is in user)
    return (fields[7] if len(fields) > 7 else 0, sum(fields[:8]))


def steal_pct(before, after):
    """The share of CPU time stolen between two cpu_steal() readings, in
    percent; None where nothing was counted."""
    total = after[1] - before[1]
    # Clock ticks: more digits than two would be noise.
    return round(100.0 * (after[0] - before[0]) / total, 2) if total > 0 \
        else None


def schedstat_cpu_ns(pid):
    """CPU time of a process's threads in nanoseconds (schedstat, finer
    than the clock ticks of proc_sample); 0 once it is gone."""
    total = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass  # a thread that just ended
    return total


def proc_sample(pid):
    """CPU seconds, context switches (summed over threads) and RSS of a
    live process, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
        fields = stat[stat.rindex(")") + 2:].split()
        cpu = (int(fields[11]) + int(fields[12])) / CLK_TCK
        voluntary = involuntary = 0
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{tid}/status") as f:
                    for line in f:
                        if line.startswith("voluntary_ctxt_switches:"):
                            voluntary += int(line.split()[1])
                        elif line.startswith("nonvoluntary_ctxt_switches:"):
                            involuntary += int(line.split()[1])
            except OSError:
                pass  # a thread that just ended
        rss = None
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
        return {"t": time.monotonic(), "cpu_s": cpu, "voluntary": voluntary,
                "involuntary": involuntary, "rss_kib": rss}
    except (OSError, ValueError, IndexError):
        return None


def sample_delta(before, after):
    if before is None or after is None:
        return None
    return {
        "wall_s": round(after["t"] - before["t"], 4),
        "cpu_s": round(after["cpu_s"] - before["cpu_s"], 4),
        "voluntary_ctxt_switches": after["voluntary"] - before["voluntary"],
        "involuntary_ctxt_switches":
            after["involuntary"] - before["involuntary"],
    }
