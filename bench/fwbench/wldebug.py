"""The waits of a Wayland application at its own end of a slow link, read
from libwayland's WAYLAND_DEBUG log (each request as the application sends
it, each event as it dispatches it, timed in milliseconds) and from
bench/link's --trace (when bytes crossed the link towards it).

Packard and Gettys ("X Window System Network Performance") counted an X
client's round trips on the client's end of the wire; a Wayland client's
waits can only be counted there too: fairway sees waypipe, not the
application, and a configure or a keymap it waits for is no answer to a
request. The rules are in bench/README.md ("remote")."""

import bisect
import re

# [1234567.890]  -> wl_display@1.sync(new id wl_callback@3)
# [1234567.890] wl_callback@3.done(12)
_LINE = re.compile(r"^\[\s*(\d+)\.(\d{3})\]\s+(->\s+)?(?:discarded\s+)?"
    r"([A-Za-z0-9_]+)@(\d+)\.([A-Za-z0-9_]+)\((.*)\)\s*$")
_NEW_ID = re.compile(r"new id (?:\[unknown\]|([A-Za-z0-9_]+))@(\d+)")

# From the bytes' arrival at waypipe's end to the application dispatching
# them: waypipe copies a keymap or a buffer into a new file first (measured
# up to 10 ms under strace on a loaded machine).
WAKE_MS = 15.0

# The causes a wait is put down to, in the order the report lists them.
CAUSES = ["registry", "sync", "configure", "activation", "frame", "other"]


def parse(lines, base_us):
    """Messages from a WAYLAND_DEBUG log, as dicts: t (ms after base),
    req (True for a request), iface, id, name, args, new (the id created,
    or None). base_us: CLOCK_REALTIME in microseconds at the launch;
    libwayland prints that clock's microseconds modulo 2^32, as ms."""
    out = []
    for line in lines:
        m = _LINE.match(line.rstrip("\n"))
        if not m:
            continue
        us = int(m.group(1)) * 1000 + int(m.group(2))
        t = ((us - base_us) % (1 << 32)) / 1000.0
        # A line from before the launch would wrap to ~71 minutes.
        if t > 3600e3:
            continue
        new = _NEW_ID.search(m.group(7))
        out.append({"t": t, "req": bool(m.group(3)), "iface": m.group(4),
            "id": int(m.group(5)), "name": m.group(6), "args": m.group(7),
            "new": int(new.group(2)) if new else None,
            "new_iface": (new.group(1) if new else None)})
    return out


def read_link(lines, launched_mono):
    """bench/link --trace lines: (t ms after the launch, conn, dir, bytes)."""
    out = []
    for line in lines:
        parts = line.split()
        if len(parts) != 4:
            continue
        try:
            t = (float(parts[0]) - launched_mono) * 1000.0
            out.append((t, int(parts[1]), parts[2], int(parts[3])))
        except ValueError:
            continue
    return out


# What a wait is put down to when the events that ended it settle more
# than one thing the application had asked for: the first in this list.
_PRIORITY = ["configure", "registry", "sync", "activation", "frame"]


def _asked(m, state):
    """Notes what a request asks the compositor for: the tag its answer
    will settle, keyed by (interface, id) of the object the answer comes
    on."""
    iface, name, new = m["iface"], m["name"], m["new"]
    if iface == "wl_display" and name == "get_registry":
        # The registry's globals are settled by the sync that follows.
        state["registry"] = True
    elif iface == "wl_display" and name == "sync":
        tag = "registry" if state.pop("registry", False) else "sync"
        state["pending"][("wl_callback", new)] = tag
    elif iface == "wl_surface" and name == "frame":
        state["pending"][("wl_callback", new)] = "frame"
    elif name in ("get_xdg_surface", "get_layer_surface"):
        # The first configure of the new surface, which it must wait for
        # before it attaches a buffer.
        kind = {"xdg_wm_base": "xdg_surface", "zxdg_shell_v6":
            "zxdg_surface_v6", "zwlr_layer_shell_v1":
            "zwlr_layer_surface_v1"}.get(iface)
        if kind:
            state["pending"][(kind, new)] = "configure"
    elif iface == "xdg_activation_v1" and name == "get_activation_token":
        state["pending"][("xdg_activation_token_v1", new)] = "activation"


def _settled(m, state):
    """The tag an event settles, or None."""
    key = (m["iface"], m["id"])
    if m["iface"] == "wl_callback" and m["name"] == "done":
        return state["pending"].pop(key, None)
    if m["name"] == "configure" or (m["iface"] ==
            "xdg_activation_token_v1" and m["name"] == "done"):
        return state["pending"].pop(key, None)
    return None


def waits(msgs, link, delay_ms, until=None, min_gap=0.5):
    """The application's waits on the link until `until` (ms after the
    launch): each gap of at least min_gap x RTT in its messages that ends
    with an event dispatched soon (WAKE_MS, or a quarter RTT) after bytes
    came across the link towards it (a chunk read at the far end of the
    link arrives delay_ms later). A gap that ends with a request, or with
    an event that had come long before (a busy application), is the
    application's own time.

    Each wait is put down to what the events dispatched after it, until
    the next wait, settled of what the application had asked for before
    it: the registry (the sync that follows wl_display.get_registry), a
    later wl_display.sync, the first configure of a surface, an
    xdg_activation token, a frame callback; "other" when they settled
    nothing (then `event` names the first event). Returns a list of
    dicts: t0, t1 (ms after the launch), cause, also (the other things
    settled), event."""
    rtt = 2.0 * delay_ms
    if rtt <= 0:
        return None
    arrivals = sorted(t + delay_ms for t, _, d, n in link
        if d == "down" and n > 0)
    state = {"pending": {}}
    out = []
    # Since the last wait the application sent a request: only then can it
    # wait on something new. Gaps with no request between them are one
    # wait, answered in pieces (a keymap, then the configure).
    asked = True
    for i, m in enumerate(msgs):
        if until is not None and m["t"] > until:
            break
        if i > 0 and not m["req"] and asked:
            t0, t1 = msgs[i - 1]["t"], m["t"]
            if t1 - t0 >= min_gap * rtt and _came(arrivals, t0, t1):
                asked = False
                first = next((x for x in msgs[i:] if not x["req"] and
                    x["iface"] != "wl_display"), m)
                out.append({"t0": t0, "t1": t1, "asked": dict(
                    state["pending"]), "settled": [],
                    "woken": _woken(arrivals, t1, max(rtt / 4, WAKE_MS)),
                    "event": f"{first['iface']}.{first['name']}"})
        if m["req"]:
            asked = True
            _asked(m, state)
        else:
            tag = _settled(m, state)
            # Settled after a wait: put down to the latest wait, if the
            # thing was asked for before it.
            if tag and out:
                w = out[-1]
                key = (m["iface"], m["id"])
                if w["asked"].get(key) == tag:
                    w["settled"].append(tag)
    kept = []
    for w in out:
        tags = [t for t in _PRIORITY if t in w["settled"]]
        # A gap that settled nothing asked for is a wait only if the
        # application went on as soon as the bytes came.
        if not tags and not w["woken"]:
            continue
        w["cause"] = tags[0] if tags else "other"
        w["also"] = tags[1:]
        for k in ("asked", "settled", "woken"):
            del w[k]
        kept.append(w)
    return kept


def _came(arrivals, t0, t1):
    """Bytes arrived in (t0, t1]."""
    k = bisect.bisect_right(arrivals, t1) - 1
    return k >= 0 and arrivals[k] > t0


def _woken(arrivals, t1, slack):
    """The last bytes before t1 came at most slack before it: the
    application went on when they came, not later."""
    k = bisect.bisect_right(arrivals, t1) - 1
    return k >= 0 and t1 - arrivals[k] <= slack


def last_commit(msgs, before):
    """The time of the last wl_surface.commit sent before `before` (ms)."""
    t = None
    for m in msgs:
        if m["t"] > before:
            break
        if m["req"] and m["iface"] == "wl_surface" and m["name"] == "commit":
            t = m["t"]
    return t
