"""The X11 wire as bench/link sees it on the client's end: message framing,
request names, and Packard and Gettys' count of the replies a client waited
for ("X Window System Network Performance", Table 2).

A round trip: a reply reaches the client while the last request the client
has sent is the one it answers, so the client sent nothing more until it had
it (their rule: "requests which have replies and which are delivered just
before a reply is received"). The connection setup is a round trip of its
own. A wait (only with a delay): the client had sent nothing for at least
the link's round-trip time when a message reached it, and its next request
followed that message: it had been waiting for it. Mostly events (a
MapNotify, an Expose), as a Wayland client waits for a configure; also a
reply to a request followed by others before the client stalled on it,
which the round-trip rule leaves out."""

import struct

CORE = {
    1: "CreateWindow", 2: "ChangeWindowAttributes", 3: "GetWindowAttributes",
    4: "DestroyWindow", 5: "DestroySubwindows", 6: "ChangeSaveSet",
    7: "ReparentWindow", 8: "MapWindow", 9: "MapSubwindows",
    10: "UnmapWindow", 11: "UnmapSubwindows", 12: "ConfigureWindow",
    13: "CirculateWindow", 14: "GetGeometry", 15: "QueryTree",
    16: "InternAtom", 17: "GetAtomName", 18: "ChangeProperty",
    19: "DeleteProperty", 20: "GetProperty", 21: "ListProperties",
    22: "SetSelectionOwner", 23: "GetSelectionOwner", 24: "ConvertSelection",
    25: "SendEvent", 26: "GrabPointer", 27: "UngrabPointer",
    28: "GrabButton", 29: "UngrabButton", 30: "ChangeActivePointerGrab",
    31: "GrabKeyboard", 32: "UngrabKeyboard", 33: "GrabKey", 34: "UngrabKey",
    35: "AllowEvents", 36: "GrabServer", 37: "UngrabServer",
    38: "QueryPointer", 39: "GetMotionEvents", 40: "TranslateCoordinates",
    41: "WarpPointer", 42: "SetInputFocus", 43: "GetInputFocus",
    44: "QueryKeymap", 45: "OpenFont", 46: "CloseFont", 47: "QueryFont",
    48: "QueryTextExtents", 49: "ListFonts", 50: "ListFontsWithInfo",
    51: "SetFontPath", 52: "GetFontPath", 53: "CreatePixmap",
    54: "FreePixmap", 55: "CreateGC", 56: "ChangeGC", 57: "CopyGC",
    58: "SetDashes", 59: "SetClipRectangles", 60: "FreeGC", 61: "ClearArea",
    62: "CopyArea", 63: "CopyPlane", 64: "PolyPoint", 65: "PolyLine",
    66: "PolySegment", 67: "PolyRectangle", 68: "PolyArc", 69: "FillPoly",
    70: "PolyFillRectangle", 71: "PolyFillArc", 72: "PutImage",
    73: "GetImage", 74: "PolyText8", 75: "PolyText16", 76: "ImageText8",
    77: "ImageText16", 78: "CreateColormap", 79: "FreeColormap",
    80: "CopyColormapAndFree", 81: "InstallColormap",
    82: "UninstallColormap", 83: "ListInstalledColormaps", 84: "AllocColor",
    85: "AllocNamedColor", 86: "AllocColorCells", 87: "AllocColorPlanes",
    88: "FreeColors", 89: "StoreColors", 90: "StoreNamedColor",
    91: "QueryColors", 92: "LookupColor", 93: "CreateCursor",
    94: "CreateGlyphCursor", 95: "FreeCursor", 96: "RecolorCursor",
    97: "QueryBestSize", 98: "QueryExtension", 99: "ListExtensions",
    100: "ChangeKeyboardMapping", 101: "GetKeyboardMapping",
    102: "ChangeKeyboardControl", 103: "GetKeyboardControl", 104: "Bell",
    105: "ChangePointerControl", 106: "GetPointerControl",
    107: "SetScreenSaver", 108: "GetScreenSaver", 109: "ChangeHosts",
    110: "ListHosts", 111: "SetAccessControl", 112: "SetCloseDownMode",
    113: "KillClient", 114: "RotateProperties", 115: "ForceScreenSaver",
    116: "SetPointerMapping", 117: "GetPointerMapping",
    118: "SetModifierMapping", 119: "GetModifierMapping",
    127: "NoOperation",
}

# The extension requests toolkits make while starting; others are named
# EXTENSION:minor.
EXTENSION = {
    "BIG-REQUESTS": {0: "BigReqEnable"},
    "XKEYBOARD": {0: "UseExtension", 1: "SelectEvents", 3: "Bell",
        4: "GetState", 6: "GetControls", 8: "GetMap", 10: "GetCompatMap",
        12: "GetIndicatorState", 13: "GetIndicatorMap", 17: "GetNames",
        21: "PerClientFlags", 24: "GetKbdByName", 25: "GetDeviceInfo"},
    "RENDER": {0: "QueryVersion", 1: "QueryPictFormats", 4: "CreatePicture",
        17: "CreateGlyphSet", 20: "AddGlyphs", 23: "CompositeGlyphs8",
        26: "FillRectangles", 29: "QueryFilters"},
    "XInputExtension": {1: "GetExtensionVersion", 2: "ListInputDevices",
        3: "OpenDevice", 46: "XIQueryPointer", 47: "XIQueryVersion",
        48: "XIQueryDevice", 51: "XISelectEvents", 61: "XIGetProperty"},
    "MIT-SHM": {0: "QueryVersion", 1: "Attach", 3: "PutImage",
        6: "AttachFd", 7: "CreateSegment"},
    "XFIXES": {0: "QueryVersion", 2: "SelectSelectionInput",
        3: "SelectCursorInput"},
    "RANDR": {0: "QueryVersion", 4: "SelectInput", 8: "GetScreenResources",
        9: "GetOutputInfo", 20: "GetCrtcInfo", 25: "GetScreenResourcesCurrent",
        31: "GetOutputPrimary", 42: "GetMonitors"},
    "SYNC": {0: "Initialize", 1: "ListSystemCounters", 2: "CreateCounter"},
    "Composite": {0: "QueryVersion"},
    "DAMAGE": {0: "QueryVersion"},
    "XINERAMA": {0: "QueryVersion", 4: "IsActive", 5: "QueryScreens"},
    "Present": {0: "QueryVersion", 1: "Pixmap", 3: "SelectInput"},
    "DRI3": {0: "QueryVersion", 1: "Open"},
    "GLX": {14: "GetVersion"},
    "SHAPE": {0: "QueryVersion"},
    "XC-MISC": {1: "GetXIDRange"},
    "X-Resource": {0: "QueryVersion"},
    "MIT-SCREEN-SAVER": {0: "QueryVersion"},
    "DOUBLE-BUFFER": {0: "GetVersion"},
    "XTEST": {0: "GetVersion"},
}

EVENTS = {
    2: "KeyPress", 3: "KeyRelease", 4: "ButtonPress", 5: "ButtonRelease",
    6: "MotionNotify", 7: "EnterNotify", 8: "LeaveNotify", 9: "FocusIn",
    10: "FocusOut", 11: "KeymapNotify", 12: "Expose", 13: "GraphicsExpose",
    14: "NoExpose", 15: "VisibilityNotify", 16: "CreateNotify",
    17: "DestroyNotify", 18: "UnmapNotify", 19: "MapNotify",
    20: "MapRequest", 21: "ReparentNotify", 22: "ConfigureNotify",
    23: "ConfigureRequest", 24: "GravityNotify", 25: "ResizeRequest",
    26: "CirculateNotify", 27: "CirculateRequest", 28: "PropertyNotify",
    29: "SelectionClear", 30: "SelectionRequest", 31: "SelectionNotify",
    32: "ColormapNotify", 33: "ClientMessage", 34: "MappingNotify",
    35: "GenericEvent",
}


# Extensions that share memory or pass file descriptors with the server: a
# client across a network cannot use them, and the link carries no file
# descriptors. The link renames them in the client's QueryExtension, so
# that the server answers "not present", as it would a remote client.
HIDDEN = (b"MIT-SHM", b"DRI3", b"DRI2")


class X11Watch:
    def __init__(self, rtt_s=0.0, hide=HIDDEN, on_map=None):
        self.rtt = rtt_s
        self.hide = hide
        # Called with the time of the client's first MapWindow or
        # MapSubwindows: no frame before it can show its windows.
        self.on_map = on_map
        self.mapped = None
        self.up_offset = 0          # stream offset of self.up[0]
        self.patches = []
        self.order = None           # "<" or ">" once the setup is read
        self.up = b""
        self.down = b""
        self.setup_sent = None
        self.setup_done = None
        self.seq = 0                # requests sent, the setup not counted
        self.last_request_t = None
        self.requests = {}          # seq -> (name, read time)
        self.answered = set()
        self.extensions = {}        # major opcode -> name
        self.asked = {}             # seq of a QueryExtension -> name
        self.n_requests = 0
        self.n_replies = 0
        self.n_events = 0
        self.n_errors = 0
        self.roundtrips = []        # (sent, answered, name)
        self.pending_wake = None    # (event name, delivered) since last req
        self.event_waits = []       # (delivered, event name)
        self.first_t = None
        self.hidden = set()

    # The client's side.

    def from_client(self, now, data):
        """Parses the client's bytes; returns [(stream offset, bytes)] to
        overwrite before they go on."""
        self.up += data
        self.patches = []
        self._parse_up(now)
        return self.patches

    def _consume(self, size):
        self.up = self.up[size:]
        self.up_offset += size

    def _parse_up(self, now):
        if self.first_t is None:
            self.first_t = now
        while self.order != "stop":
            if self.order is None:
                if len(self.up) < 12:
                    return
                self.order = "<" if self.up[0] == 0x6C else ">"
                n, d = struct.unpack(self.order + "HH", self.up[6:10])
                size = 12 + _pad(n) + _pad(d)
                if len(self.up) < size:
                    self.order = None
                    return
                self._consume(size)
                self.setup_sent = now
                continue
            if len(self.up) < 4:
                return
            opcode, minor, length = struct.unpack(self.order + "BBH",
                self.up[:4])
            if length == 0:
                if len(self.up) < 8:
                    return
                length = struct.unpack(self.order + "I", self.up[4:8])[0]
            size = length * 4
            if size < 4 or len(self.up) < size:
                if size < 4:
                    self.up = b""  # not X11 after all: stop parsing
                    self.order = "stop"
                return
            body = self.up[:size]
            offset = self.up_offset
            self._consume(size)
            self._request(now, opcode, minor, body, offset)

    def _request(self, now, opcode, minor, body, offset):
        self.seq += 1
        self.n_requests += 1
        name = self._name(opcode, minor)
        if opcode == 98 and len(body) >= 8:
            n = struct.unpack(self.order + "H", body[4:6])[0]
            ext = bytes(body[8:8 + n])
            self.asked[self.seq] = ext.decode("latin-1")
            if ext in self.hide:
                # Same length, no such extension: the server says absent.
                self.patches.append((offset + 8, b"-" * n))
                self.hidden.add(ext.decode("latin-1"))
        if opcode in (8, 9) and self.mapped is None:
            self.mapped = now
            if self.on_map:
                self.on_map(now)
        if self.pending_wake is not None and self.rtt > 0:
            event, delivered = self.pending_wake
            if delivered - (self.last_request_t or delivered) >= self.rtt:
                self.event_waits.append((delivered, event))
        self.pending_wake = None
        self.requests[self.seq] = (name, now)
        if len(self.requests) > 4096:
            for k in sorted(self.requests)[:2048]:
                del self.requests[k]
        self.last_request_t = now

    def _name(self, opcode, minor):
        if opcode < 128:
            return CORE.get(opcode, f"core:{opcode}")
        ext = self.extensions.get(opcode, f"ext{opcode}")
        return f"{ext}:" + EXTENSION.get(ext, {}).get(minor, str(minor))

    # The server's side, as it reaches the client.

    def to_client(self, now, data):
        if self.setup_sent is None or self.order == "stop":
            return
        self.down += data
        while True:
            if self.setup_done is None:
                if len(self.down) < 8:
                    return
                extra = struct.unpack(self.order + "H", self.down[6:8])[0]
                size = 8 + 4 * extra
                if len(self.down) < size:
                    return
                self.down = self.down[size:]
                self.setup_done = now
                if self.setup_sent is not None:
                    self.roundtrips.append((self.setup_sent, now,
                        "connection setup"))
                continue
            if len(self.down) < 32:
                return
            kind = self.down[0] & 0x7F
            size = 32
            if kind == 1 or kind == 35:
                size += 4 * struct.unpack(self.order + "I",
                    self.down[4:8])[0]
            if len(self.down) < size:
                return
            msg = self.down[:size]
            self.down = self.down[size:]
            self._message(now, kind, msg)

    def _full_seq(self, low):
        return self.seq - ((self.seq - low) & 0xFFFF)

    def _message(self, now, kind, msg):
        seq = self._full_seq(struct.unpack(self.order + "H", msg[2:4])[0])
        if kind == 0:
            # An error to the request the client stalled on ends its wait
            # as a reply would (Xlib's _XReply returns with it).
            self.n_errors += 1
            name, sent = self.requests.get(seq, ("?", None))
            if seq == self.seq and sent is not None and \
                    seq not in self.answered:
                self.answered.add(seq)
                self.roundtrips.append((sent, now, name + " (error)"))
                self.pending_wake = None
            elif self.last_request_t is not None:
                self.pending_wake = (f"error to {name}", now)
            return
        if kind != 1:
            self.n_events += 1
            name = EVENTS.get(kind, f"event{kind}")
            if self.last_request_t is not None:
                self.pending_wake = (name, now)
            return
        self.n_replies += 1
        if seq in self.asked and len(msg) >= 10 and msg[8]:
            self.extensions[msg[9]] = self.asked.pop(seq)
        if seq in self.answered:
            return  # a second reply to one request (ListFontsWithInfo)
        self.answered.add(seq)
        name, sent = self.requests.get(seq, ("?", None))
        if seq == self.seq and sent is not None:
            self.roundtrips.append((sent, now, name))
            self.pending_wake = None
        else:
            # Answered after the client sent more: if it then stalls
            # until this reply comes, it waited for it all the same.
            self.pending_wake = (f"reply to {name}", now)

    def summary(self):
        by = {}
        for _, _, name in self.roundtrips:
            by[name] = by.get(name, 0) + 1
        waits = {}
        for _, name in self.event_waits:
            waits[name] = waits.get(name, 0) + 1
        return {
            "requests": self.n_requests,
            "replies": self.n_replies,
            "events": self.n_events,
            "errors": self.n_errors,
            "roundtrips": len(self.roundtrips),
            "blocked_ms": round(sum(b - a for a, b, _ in self.roundtrips)
                * 1e3, 3),
            "roundtrip_requests": dict(sorted(by.items(),
                key=lambda kv: -kv[1])),
            "event_waits": len(self.event_waits) if self.rtt > 0 else None,
            "event_wait_names": waits,
            "first_s": self.first_t,
            "hidden_extensions": sorted(self.hidden),
            "mapped": self.mapped,
            # CLOCK_MONOTONIC seconds, to cut the counts at a first frame.
            "trips": [[round(a, 6), round(b, 6), n]
                for a, b, n in self.roundtrips],
            "waits": [[round(t, 6), n] for t, n in self.event_waits],
        }


def _pad(n):
    return (n + 3) & ~3
