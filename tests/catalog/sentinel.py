#!/usr/bin/python3
"""Sentinel windows for the validation catalog: they journal every input they receive.

Run it with Debian's /usr/bin/python3 (python3-gi). Each --window NAME:X,Y,WxH opens one
toplevel titled "CuaSentinel NAME" whose client area is at X,Y (screen pixels) and WxH in
size, filled with a label, and appends one JSON line to --journal for every event that
reaches it: pointer buttons, motion, wheel, crossing, keys and focus, with the device that
sent it, in window-local pixels:

    {"t": <unix ms>, "window": "A", "event": "button_press", "x": 12, "y": 30, "button": 1, "device": "..."}

Once every window is mapped it writes {"event": "ready", "pid", "windows": {NAME: xid}}.
The catalog keeps these windows on top of the apps it drives (covering a known part of
them), keeps one of them active during background cells, and fails a cell when input
meant for an app lands here.
"""

import argparse
import json
import os
import re
import signal
import sys
import time

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
gi.require_version("GdkX11", "3.0")
from gi.repository import Gdk, GdkX11, GLib, Gtk  # noqa: E402,F401  (GdkX11 enables get_xid)

EVENT_NAMES = {
    Gdk.EventType.BUTTON_PRESS: "button_press",
    Gdk.EventType._2BUTTON_PRESS: "button_press_2",
    Gdk.EventType._3BUTTON_PRESS: "button_press_3",
    Gdk.EventType.BUTTON_RELEASE: "button_release",
    Gdk.EventType.MOTION_NOTIFY: "motion",
    Gdk.EventType.SCROLL: "scroll",
    Gdk.EventType.KEY_PRESS: "key_press",
    Gdk.EventType.KEY_RELEASE: "key_release",
    Gdk.EventType.ENTER_NOTIFY: "enter",
    Gdk.EventType.LEAVE_NOTIFY: "leave",
    Gdk.EventType.FOCUS_CHANGE: "focus",
    Gdk.EventType.TOUCH_BEGIN: "touch_begin",
}


class Journal:
    """Appends one JSON object per line and flushes each one."""

    def __init__(self, path):
        self.file = open(path, "a", encoding="utf-8")

    def write(self, record):
        self.file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self.file.flush()


def parse_window(spec):
    match = re.fullmatch(r"(\w+):(-?\d+),(-?\d+),(\d+)x(\d+)", spec)
    if match is None:
        raise argparse.ArgumentTypeError(f"not NAME:X,Y,WxH: {spec}")
    name, *numbers = match.groups()
    return (name, *(int(n) for n in numbers))


class Sentinel:
    def __init__(self, args):
        self.journal = Journal(args.journal)
        self.windows = {}
        self.pending = set()
        for spec in args.window:
            name, _, _, _, _ = spec
            self.pending.add(name)
            self.windows[name] = self.build(*spec)

    def build(self, name, x, y, width, height):
        window = Gtk.Window(title=f"CuaSentinel {name}")
        window.set_default_size(width, height)
        window.get_accessible().set_name(f"CuaSentinel {name}")
        window.move(x, y)
        window.add_events(Gdk.EventMask.ALL_EVENTS_MASK)
        label = Gtk.Label(label=f"sentinel {name}")
        window.add(label)
        window.connect("event", lambda w, e, n=name: self.on_event(n, e))
        window.connect("map-event", lambda w, e, n=name: self.on_map(n))
        window.connect("destroy", lambda w: Gtk.main_quit())
        return window

    def on_map(self, name):
        self.pending.discard(name)
        if not self.pending:
            GLib.timeout_add(50, self.send_ready)
        return False

    def send_ready(self):
        xids = {name: window.get_window().get_xid() for name, window in self.windows.items()}
        self.journal.write({"t": now(), "event": "ready", "pid": os.getpid(), "windows": xids})
        return False

    def on_event(self, name, event):
        kind = EVENT_NAMES.get(event.type)
        if kind is None:
            return False
        record = {"t": now(), "window": name, "event": kind}
        if kind == "focus":
            record["in"] = bool(event.focus_change.in_)
        else:
            ok, x, y = event.get_coords()
            if ok:
                record["x"], record["y"] = round(x), round(y)
        ok, button = event.get_button()
        if ok:
            record["button"] = button
        ok, keyval = event.get_keyval()
        if ok and kind.startswith("key"):
            record["key"] = Gdk.keyval_name(keyval)
        if kind == "scroll":
            record["direction"] = int(event.get_scroll_direction()[1]) if event.get_scroll_direction()[0] else -1
        device = event.get_device()
        if device is not None:
            record["device"] = device.get_name()
        self.journal.write(record)
        return False


def now():
    return int(time.time() * 1000)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--journal", required=True, help="file to append JSON lines to")
    parser.add_argument(
        "--window", action="append", type=parse_window, required=True,
        help="NAME:X,Y,WxH (client area in screen pixels); repeat for more windows",
    )
    args = parser.parse_args()
    GLib.set_prgname("cua-catalog-sentinel")
    GLib.set_application_name("CuaSentinel")
    sentinel = Sentinel(args)
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, signum, Gtk.main_quit)
    for window in sentinel.windows.values():
        window.show_all()
    Gtk.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
