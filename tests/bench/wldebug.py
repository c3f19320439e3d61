#!/usr/bin/env python3
"""bench/fwbench/wldebug.py, the count of a Wayland application's waits at
its own end of `bench/run remote`'s slow link: a scripted WAYLAND_DEBUG
log and link trace, with a wait of each cause, a pipelined sync, the
application's own time, and a busy application that dispatches an event
long after it came. No compositor."""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.environ["FAIRWAY_BENCH_RUN"]))

from fwbench import wldebug  # noqa: E402

DELAY_MS = 50.0
# CLOCK_REALTIME at the launch, in microseconds modulo 2^32: the log's
# times wrap to 0 100 ms after it, as libwayland's do every 71 minutes.
BASE_US = (1 << 32) - 100000

# (ms after the launch, message as libwayland prints it)
LOG = [
    (0.0, " -> wl_display@1.get_registry(new id wl_registry@2)"),
    (0.1, " -> wl_display@1.sync(new id wl_callback@3)"),
    # The registry's answer: one RTT and a little.
    (105.0, "wl_display@1.delete_id(3)"),
    (105.1, 'wl_registry@2.global(1, "wl_shm", 1)'),
    (105.2, ' -> wl_registry@2.bind(1, "wl_shm", 1, new id [unknown]@4)'),
    (105.3, "wl_callback@3.done(1)"),
    (105.4, " -> wl_display@1.sync(new id wl_callback@3)"),
    # A roundtrip inside a toolkit.
    (208.0, "wl_shm@4.format(0)"),
    (208.1, "wl_callback@3.done(2)"),
    # A sync the application does not wait for: it goes on sending.
    (209.0, " -> wl_display@1.sync(new id wl_callback@13)"),
    (230.0, " -> wl_shm@4.create_pool(new id wl_shm_pool@14, fd 9, 4096)"),
    # Its own time (a font, a theme): a gap that ends with a request.
    (309.0, " -> wl_compositor@5.create_surface(new id wl_surface@6)"),
    (309.5, "wl_callback@13.done(3)"),
    (310.0, " -> xdg_wm_base@7.get_xdg_surface(new id xdg_surface@8, "
        "wl_surface@6)"),
    (310.1, " -> xdg_surface@8.get_toplevel(new id xdg_toplevel@9)"),
    (310.2, " -> wl_surface@6.commit()"),
    # The first configure; the keymap comes first and takes 58 ms to
    # compile, while the configure comes: one wait.
    (412.0, "wl_keyboard@10.keymap(1, fd 12, 64434)"),
    (470.0, "xdg_toplevel@9.configure(0, 0, array[0])"),
    (470.1, "xdg_surface@8.configure(3)"),
    (471.0, " -> xdg_surface@8.ack_configure(3)"),
    (471.1, " -> wl_surface@6.frame(new id wl_callback@11)"),
    (471.2, " -> wl_surface@6.attach(wl_buffer@12, 0, 0)"),
    (471.3, " -> wl_surface@6.commit()"),
    # A frame callback waited for.
    (575.0, "wl_callback@11.done(1234)"),
    # Busy: an event that came 90 ms before the application dispatched it
    # is no wait.
    (576.0, " -> wl_surface@6.damage_buffer(0, 0, 10, 10)"),
    (700.0, 'wl_seat@15.name("seat0")'),
    (701.0, " -> wl_surface@6.commit()"),
    # After the commit that was shown: not counted.
    (805.0, "wl_callback@16.done(1)"),
]

# Chunks read at fairway's end of the link towards the application; each
# arrives DELAY_MS later.
LINK = [(0.2, "up", 28), (52.0, "down", 1880), (106.0, "up", 100),
    (155.0, "down", 400), (210.0, "up", 60), (258.0, "down", 24),
    (311.0, "up", 200), (358.0, "down", 64460), (380.0, "down", 72),
    (472.0, "up", 1400000), (523.0, "down", 12), (560.0, "down", 20),
    (702.0, "up", 20), (752.0, "down", 12)]


def fail(msg):
    print(f"bench-wldebug: FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def log_lines():
    out = []
    for t, text in LOG:
        us = (BASE_US + int(round(t * 1000))) % (1 << 32)
        out.append(f"[{us // 1000:7d}.{us % 1000:03d}] {text}\n")
    # Lines libwayland did not write are skipped.
    out.insert(3, "info: main.c:421: version: 1.13.1\n")
    return out


def main():
    msgs = wldebug.parse(log_lines(), BASE_US)
    if len(msgs) != len(LOG):
        fail(f"parsed {len(msgs)} messages of {len(LOG)}")
    for m, (t, _) in zip(msgs, LOG):
        if abs(m["t"] - t) > 0.001:
            fail(f"{m['iface']}.{m['name']} at {m['t']:.3f} ms, logged at "
                f"{t} ms (the wrap of the log's clock)")
    launched = 1000.0
    trace = [f"{launched + t / 1000:.6f} 1 {way} {n}\n"
        for t, way, n in LINK]
    chunks = wldebug.read_link(trace, launched)
    commit = wldebug.last_commit(msgs, 750.0)
    if commit != 701.0:
        fail(f"the shown commit at {commit}, sent at 701 ms")
    ws = wldebug.waits(msgs, chunks, DELAY_MS, until=commit)
    got = [(round(w["t0"], 1), round(w["t1"], 1), w["cause"]) for w in ws]
    want = [(0.1, 105.0, "registry"), (105.4, 208.0, "sync"),
        (310.2, 412.0, "configure"), (471.3, 575.0, "frame")]
    if got != want:
        fail(f"waits {got}, expected {want}")
    if ws[2]["event"] != "wl_keyboard.keymap":
        fail(f"the configure wait ended with {ws[2]['event']}")
    if wldebug.waits(msgs, chunks, 0.0) is not None:
        fail("waits counted with no delay, where a wait cannot be told "
            "from the application's own time")
    # Without the link's bytes nothing was waited for.
    if wldebug.waits(msgs, [], DELAY_MS, until=commit):
        fail("waits counted with nothing crossing the link")
    print(f"waits: {[w['cause'] for w in ws]}; the pipelined sync, the "
        "own time and the busy gap left out: ok")
    print("bench-wldebug: ok")


if __name__ == "__main__":
    main()
