#!/usr/bin/python3
"""An independent X client that watches activation and focus for as long as it runs.

Run with Debian's /usr/bin/python3 (libX11 through ctypes, no other package). It opens its
own connection to $DISPLAY, selects PropertyChangeMask on the root window and
FocusChangeMask on each --window XID, writes {"event": "ready"} to --journal once the
selections are in place, then appends one JSON line per event:

    {"t": <unix ms>, "event": "active", "value": <_NET_ACTIVE_WINDOW read on the notify>}
    {"t": ..., "event": "focus_in" | "focus_out", "window": XID, "mode": M, "detail": D}

On SIGTERM it makes one round trip through the window manager (it asks for
_NET_FRAME_EXTENTS of a throwaway window, which the manager answers in order with all it
had queued), drains what arrived and writes {"event": "done"}: a change the window manager
made in reaction to the watched call is in the journal before "done".
"""

import argparse
import ctypes
import ctypes.util
import json
import select
import signal
import sys
import time

PROPERTY_NOTIFY = 28
FOCUS_IN = 9
FOCUS_OUT = 10
CLIENT_MESSAGE = 33
PROPERTY_CHANGE_MASK = 1 << 22
FOCUS_CHANGE_MASK = 1 << 21
SUBSTRUCTURE_NOTIFY_MASK = 1 << 19
SUBSTRUCTURE_REDIRECT_MASK = 1 << 20
ANY_PROPERTY_TYPE = 0
XA_CARDINAL = 6
XA_WINDOW = 33


class XEvent(ctypes.Structure):
    _fields_ = [("pad", ctypes.c_long * 24)]


def load():
    x = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
    x.XOpenDisplay.restype = ctypes.c_void_p
    x.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x.XDefaultRootWindow.restype = ctypes.c_ulong
    x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x.XInternAtom.restype = ctypes.c_ulong
    x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x.XSelectInput.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_long]
    x.XPending.argtypes = [ctypes.c_void_p]
    x.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.POINTER(XEvent)]
    x.XConnectionNumber.argtypes = [ctypes.c_void_p]
    x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    x.XFlush.argtypes = [ctypes.c_void_p]
    x.XGetWindowProperty.argtypes = [
        ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_long, ctypes.c_long, ctypes.c_int,
        ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_int),
        ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_void_p),
    ]
    x.XFree.argtypes = [ctypes.c_void_p]
    x.XCreateSimpleWindow.restype = ctypes.c_ulong
    x.XCreateSimpleWindow.argtypes = [
        ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint, ctypes.c_uint,
        ctypes.c_uint, ctypes.c_ulong, ctypes.c_ulong,
    ]
    x.XDestroyWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.POINTER(XEvent)]
    x.XSetErrorHandler.restype = ctypes.c_void_p
    return x


ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(lambda d, e: 0)


def now():
    return int(time.time() * 1000)


class Watcher:
    def __init__(self, x, journal, windows):
        self.x = x
        self.journal = open(journal, "a", encoding="utf-8")
        self.display = x.XOpenDisplay(None)
        if not self.display:
            raise SystemExit("cannot open the display")
        x.XSetErrorHandler(ERROR_HANDLER)  # a watched window may go away
        self.root = x.XDefaultRootWindow(self.display)
        self.active_atom = x.XInternAtom(self.display, b"_NET_ACTIVE_WINDOW", 0)
        self.extents_atom = x.XInternAtom(self.display, b"_NET_FRAME_EXTENTS", 0)
        self.request_atom = x.XInternAtom(self.display, b"_NET_REQUEST_FRAME_EXTENTS", 0)
        x.XSelectInput(self.display, self.root, PROPERTY_CHANGE_MASK)
        for window in windows:
            x.XSelectInput(self.display, window, FOCUS_CHANGE_MASK)
        x.XSync(self.display, 0)
        self.probe = 0
        self.probe_answered = False
        self.write({"event": "ready", "active": self.active()})

    def write(self, record):
        record = {"t": now(), **record}
        self.journal.write(json.dumps(record, separators=(",", ":")) + "\n")
        self.journal.flush()

    def active(self):
        actual_type, fmt = ctypes.c_ulong(), ctypes.c_int()
        count, after, data = ctypes.c_ulong(), ctypes.c_ulong(), ctypes.c_void_p()
        status = self.x.XGetWindowProperty(
            self.display, self.root, self.active_atom, 0, 1, 0, ANY_PROPERTY_TYPE,
            ctypes.byref(actual_type), ctypes.byref(fmt), ctypes.byref(count), ctypes.byref(after),
            ctypes.byref(data),
        )
        if status != 0 or not data.value:
            return None
        value = ctypes.cast(data, ctypes.POINTER(ctypes.c_ulong))[0] if count.value else None
        self.x.XFree(data)
        return value

    def drain(self):
        event = XEvent()
        while self.x.XPending(self.display):
            self.x.XNextEvent(self.display, ctypes.byref(event))
            words = event.pad
            kind = ctypes.c_int.from_buffer(event, 0).value
            window = words[4]
            if kind == PROPERTY_NOTIFY and window == self.root and words[5] == self.active_atom:
                self.write({"event": "active", "value": self.active()})
            elif kind == PROPERTY_NOTIFY and window == self.probe and words[5] == self.extents_atom:
                self.probe_answered = True
            elif kind in (FOCUS_IN, FOCUS_OUT):
                mode = ctypes.c_int.from_buffer(event, 40).value
                detail = ctypes.c_int.from_buffer(event, 44).value
                name = "focus_in" if kind == FOCUS_IN else "focus_out"
                self.write({"event": name, "window": window, "mode": mode, "detail": detail})

    def wait(self, seconds):
        fd = self.x.XConnectionNumber(self.display)
        select.select([fd], [], [], seconds)

    def window_manager_round_trip(self, timeout_s=2.0):
        x = self.x
        self.probe = x.XCreateSimpleWindow(self.display, self.root, -10, -10, 1, 1, 0, 0, 0)
        x.XSelectInput(self.display, self.probe, PROPERTY_CHANGE_MASK)
        message = XEvent()
        ctypes.c_int.from_buffer(message, 0).value = CLIENT_MESSAGE
        message.pad[4] = self.probe  # window
        message.pad[5] = self.request_atom  # message_type
        ctypes.c_int.from_buffer(message, 48).value = 32  # format
        x.XSendEvent(self.display, self.root, 0, SUBSTRUCTURE_NOTIFY_MASK | SUBSTRUCTURE_REDIRECT_MASK,
                     ctypes.byref(message))
        x.XFlush(self.display)
        deadline = time.monotonic() + timeout_s
        while not self.probe_answered and time.monotonic() < deadline:
            self.drain()
            if not self.probe_answered:
                self.wait(0.02)
        x.XDestroyWindow(self.display, self.probe)
        x.XSync(self.display, 0)
        self.drain()
        return self.probe_answered


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--journal", required=True)
    parser.add_argument("--window", action="append", type=lambda s: int(s, 0), default=[])
    args = parser.parse_args()
    watcher = Watcher(load(), args.journal, args.window)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    while not stopping:
        watcher.drain()
        try:
            watcher.wait(0.05)
        except InterruptedError:
            pass
    watcher.x.XSync(watcher.display, 0)
    watcher.drain()
    answered = watcher.window_manager_round_trip()
    watcher.write({"event": "done", "window_manager_answered": answered})
    return 0


if __name__ == "__main__":
    sys.exit(main())
