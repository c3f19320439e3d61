#!/usr/bin/env python3
"""bench/link, the slow link of `bench/run remote`: it carries every byte
both ways in order, delays each direction by at least --delay, serializes
at --rate, and in --x11 mode counts a client's round trips and hides the
extensions a remote client cannot use. Only lower bounds on time are
checked: a loaded machine can only make the link slower."""

import json
import os
import random
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

LINK = os.path.join(os.path.dirname(os.environ["FAIRWAY_BENCH_RUN"]), "link")
DELAY_MS = 30.0


LINKS = []


def fail(msg):
    print(f"bench-link: FAIL: {msg}", file=sys.stderr)
    for p in LINKS:
        p.kill()
    sys.exit(1)


def start_link(tmp, target, *args):
    listen = os.path.join(tmp, f"link{len(os.listdir(tmp))}.sock")
    p = subprocess.Popen([sys.executable, LINK, *args, listen, target],
        stdout=subprocess.PIPE, text=True)
    LINKS.append(p)
    if p.stdout.readline().strip() != "ready":
        fail("the link never said ready")
    return p, listen


def stop_link(p):
    p.terminate()
    if p.wait(10) != 0:
        fail(f"the link exited {p.returncode}")


def recv_exact(s, n):
    out = bytearray()
    while len(out) < n:
        b = s.recv(n - len(out))
        if not b:
            fail(f"connection closed after {len(out)} of {n} bytes")
        out += b
    return bytes(out)


def echo_server(path, arrivals):
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(4)

    def serve():
        while True:
            c, _ = srv.accept()
            threading.Thread(target=echo, args=(c,), daemon=True).start()

    def echo(c):
        while True:
            b = c.recv(65536)
            if not b:
                c.close()
                return
            arrivals.append((time.monotonic(), len(b)))
            c.sendall(b)
    threading.Thread(target=serve, daemon=True).start()


def check_order_and_delay(tmp):
    arrivals = []
    target = os.path.join(tmp, "echo.sock")
    echo_server(target, arrivals)
    link, path = start_link(tmp, target, "--delay", f"{DELAY_MS:g}")
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    c.connect(path)
    # Order: messages of every size, written back to back, come back whole
    # and in order, while the reader runs alongside.
    rng = random.Random(7)
    msgs = [bytes([i % 251]) * rng.randint(1, 70000) for i in range(60)]
    stream = b"".join(msgs)
    got = bytearray()

    def reader():
        while len(got) < len(stream):
            b = c.recv(65536)
            if not b:
                return
            got.extend(b)
    t = threading.Thread(target=reader)
    t.start()
    for m in msgs:
        c.sendall(m)
    t.join(60)
    if bytes(got) != stream:
        fail(f"the echo differs: {len(got)} of {len(stream)} bytes, "
            f"first difference at {_first_diff(got, stream)}")
    # Delay: each way takes at least --delay, a round trip twice that.
    for _ in range(5):
        arrivals.clear()
        sent = time.monotonic()
        c.sendall(b"p")
        recv_exact(c, 1)
        back = time.monotonic()
        if not arrivals:
            fail("the echo server saw nothing")
        one_way = (arrivals[0][0] - sent) * 1e3
        rtt = (back - sent) * 1e3
        if one_way < DELAY_MS or rtt < 2 * DELAY_MS:
            fail(f"one way {one_way:.2f} ms, round trip {rtt:.2f} ms with "
                f"--delay {DELAY_MS:g}")
    c.close()
    stop_link(link)
    print(f"order over {len(stream)} bytes and the delay: ok")


def check_rate(tmp):
    target = os.path.join(tmp, "echo2.sock")
    echo_server(target, [])
    trace = os.path.join(tmp, "rate.trace")
    link, path = start_link(tmp, target, "--rate", "8M", "--trace", trace)
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    c.connect(path)
    data = os.urandom(200000)   # 0.2 s each way at 8 Mbit/s
    got = bytearray()
    t = threading.Thread(target=lambda: got.extend(recv_exact(c, len(data))))
    start = time.monotonic()
    t.start()
    c.sendall(data)
    t.join(60)
    took = time.monotonic() - start
    if bytes(got) != data:
        fail("the capped echo differs")
    if took < 0.2:
        fail(f"200 kB at 8 Mbit/s came back in {took:.3f} s")
    c.close()
    stop_link(link)
    print(f"rate: 200 kB each way in {took:.3f} s: ok")
    check_trace(trace, start, len(data))


def check_trace(path, start, size):
    """--trace: one line per chunk read, every byte once, each way; times
    on CLOCK_MONOTONIC, in order."""
    try:
        with open(path) as f:
            lines = [line.split() for line in f]
    except OSError as e:
        fail(f"--trace wrote nothing: {e}")
    total = {"up": 0, "down": 0, "open": 0}
    last = {}
    for t, conn, way, n in lines:
        t = float(t)
        if t < start - 5 or t > time.monotonic():
            fail(f"--trace time {t} is not on CLOCK_MONOTONIC")
        if t < last.get(way, 0.0):
            fail(f"--trace {way} chunks out of order")
        last[way] = t
        total[way] += 1 if way == "open" else int(n)
    if total != {"up": size, "down": size, "open": 1}:
        fail(f"--trace counted {total}, sent {size} bytes each way over "
            "one connection")
    print(f"trace: {len(lines)} lines, every byte once each way: ok")


def _first_diff(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def x11_server(path, seen):
    """Just enough of an X server: a setup reply, then a reply to each
    request with a reply (InternAtom, QueryExtension), in order."""
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(1)

    def serve():
        c, _ = srv.accept()
        recv_exact(c, 12)                  # setup request, no auth
        c.sendall(struct.pack("<BBHHH", 1, 0, 11, 0, 0))
        seq = 0
        while True:
            head = c.recv(4, socket.MSG_WAITALL)
            if len(head) < 4:
                c.close()
                return
            op, _, length = struct.unpack("<BBH", head)
            body = recv_exact(c, length * 4 - 4)
            seq += 1
            seen.append((op, body))
            if op in (16, 98):
                present = 0 if op == 98 and body[4:4 + 7] == b"-------" \
                    else 1
                c.sendall(struct.pack("<BBHI", 1, 0, seq, 0)
                    + bytes([present, 200]) + bytes(22))
    threading.Thread(target=serve, daemon=True).start()


def x11_request(op, name):
    pad = (-len(name)) % 4
    return struct.pack("<BBHHH", op, 0, 2 + (len(name) + pad) // 4,
        len(name), 0) + name + bytes(pad)


def check_x11(tmp):
    seen = []
    target = os.path.join(tmp, "x.sock")
    x11_server(target, seen)
    log = os.path.join(tmp, "x.log")
    link, path = start_link(tmp, target, "--x11", "--log", log,
        "--delay", "5")
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    c.connect(path)
    c.sendall(struct.pack("<BxHHHHxx", 0x6C, 11, 0, 0, 0))
    head = recv_exact(c, 8)
    recv_exact(c, 4 * struct.unpack("<H", head[6:8])[0])
    # Two waited-for replies; then a pipelined pair: a NoOperation after
    # the InternAtom, so its reply is no round trip.
    for name in (b"WM_PROTOCOLS", b"MIT-SHM"):
        c.sendall(x11_request(16 if name != b"MIT-SHM" else 98, name))
        reply = recv_exact(c, 32)
        if name == b"MIT-SHM" and reply[8] != 0:
            fail("MIT-SHM was not hidden")
    c.sendall(x11_request(16, b"UTF8_STRING") + struct.pack("<BxH", 127, 1))
    recv_exact(c, 32)
    c.close()
    time.sleep(0.2)
    stop_link(link)
    with open(log) as f:
        lines = [json.loads(line) for line in f]
    if len(lines) != 1:
        fail(f"{len(lines)} log lines")
    s = lines[0]
    want = {"connection setup": 1, "InternAtom": 1, "QueryExtension": 1}
    if s["requests"] != 4 or s["replies"] != 3 or \
            s["roundtrip_requests"] != want:
        fail(f"counted {s}")
    if s["hidden_extensions"] != ["MIT-SHM"]:
        fail(f"hidden {s['hidden_extensions']}")
    if [op for op, _ in seen] != [16, 98, 16, 127]:
        fail(f"the server saw {seen}")
    for a, b, name in s["trips"]:
        if (b - a) * 1e3 < 10:
            fail(f"{name} answered in {(b - a) * 1e3:.2f} ms over 5 ms")
    print(f"x11: {s['roundtrips']} round trips, MIT-SHM hidden: ok")


def main():
    with tempfile.TemporaryDirectory(prefix="fw-bench-link-") as tmp:
        check_order_and_delay(tmp)
        check_rate(tmp)
        check_x11(tmp)
    print("bench-link: ok")


if __name__ == "__main__":
    main()
