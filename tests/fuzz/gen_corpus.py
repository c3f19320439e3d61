#!/usr/bin/env python3
"""Writes the seed corpus for wire-fuzz: real-looking client request streams.

Each file is three bytes of limits (max_bytes big-endian, max_messages), as
wire_fuzz.c reads them, then messages in host byte order, as libwayland
writes them. Run it from anywhere; it writes next to itself.
"""
import os
import struct
import sys


def msg(obj, opcode, *args):
    body = b"".join(args)
    size = 8 + len(body)
    return struct.pack("=II", obj, size << 16 | opcode) + body


def uint(v):
    return struct.pack("=I", v)


def int_(v):
    return struct.pack("=i", v)


def string(s):
    data = s.encode() + b"\0"
    pad = (4 - len(data) % 4) % 4
    return uint(len(data)) + data + b"\0" * pad


def limits(max_bytes=0, max_messages=0):
    return struct.pack(">HB", max_bytes, max_messages)


# Object ids as a client would allocate them.
DISPLAY, REGISTRY, CALLBACK, COMPOSITOR, SHM, XDG_WM_BASE = 1, 2, 3, 4, 5, 6
SURFACE, POOL, BUFFER, FRAME_CB = 7, 8, 9, 10


def startup():
    return b"".join([
        msg(DISPLAY, 1, uint(REGISTRY)),  # get_registry
        msg(DISPLAY, 0, uint(CALLBACK)),  # sync
        msg(REGISTRY, 0, uint(1), string("wl_compositor"), uint(5),
            uint(COMPOSITOR)),  # bind
        msg(REGISTRY, 0, uint(2), string("wl_shm"), uint(1), uint(SHM)),
        msg(REGISTRY, 0, uint(3), string("xdg_wm_base"), uint(2),
            uint(XDG_WM_BASE)),
        msg(COMPOSITOR, 0, uint(SURFACE)),  # create_surface
        msg(SHM, 0, uint(POOL), int_(4 * 256 * 256)),  # create_pool (fd aside)
        msg(POOL, 0, uint(BUFFER), int_(0), int_(256), int_(256), int_(1024),
            uint(1)),  # create_buffer
    ])


def frame(n):
    return b"".join([
        msg(SURFACE, 1, uint(BUFFER), int_(0), int_(0)),  # attach
        msg(SURFACE, 2, int_(0), int_(0), int_(256), int_(256)),  # damage
        msg(SURFACE, 3, uint(FRAME_CB + n)),  # frame
        msg(SURFACE, 6),  # commit
    ])


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(sys.argv[0])),
                       "corpus", "wire")
    os.makedirs(out, exist_ok=True)
    seeds = {
        "startup": limits() + startup(),
        "frames": limits() + startup() + b"".join(frame(i) for i in range(8)),
        "frames-limit-4": limits(0, 4) + b"".join(frame(i) for i in range(4)),
        "flood-commits": limits(4096, 0) + msg(SURFACE, 6) * 600,
        "big-message": limits(8192, 3) + msg(REGISTRY, 0, b"\x41" * 4088)
        + frame(0),
        "partial-body": limits() + startup() + frame(0)[:30],
        "partial-header": limits() + frame(0) + frame(1)[:5],
        "bad-size": limits() + frame(0) + struct.pack("=II", SURFACE, 10 << 16 | 2)
        + b"\0" * 8,
        "too-big": limits() + startup() + struct.pack("=II", SURFACE,
                                                      0xffff << 16 | 1),
    }
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
