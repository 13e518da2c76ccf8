#!/usr/bin/python3
"""A big real GTK3 window for the big-tree benchmark: about --nodes accessible objects, as
rows of (label, button, check box, entry) in a scrolled box (5 objects a row, plus the
window's own 6). Prints {"pid", "xid"} once the window is mapped. Run with Debian's
/usr/bin/python3 (python3-gi)."""
import argparse
import json
import os

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("GdkX11", "3.0")
from gi.repository import GdkX11, GLib, Gtk  # noqa: E402,F401  (GdkX11 enables get_xid)

parser = argparse.ArgumentParser()
parser.add_argument("--nodes", type=int, default=1000)
args = parser.parse_args()
window = Gtk.Window(title=f"Big tree {args.nodes}")
window.set_default_size(800, 700)
window.move(40, 40)
column = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
for i in range(max(1, (args.nodes - 6) // 5)):
    row = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=4)
    row.pack_start(Gtk.Label(label=f"Row {i}"), False, False, 0)
    row.pack_start(Gtk.Button(label=f"Open {i}"), False, False, 0)
    row.pack_start(Gtk.CheckButton(label=f"Pick {i}"), False, False, 0)
    entry = Gtk.Entry()
    entry.set_text(f"value {i}")
    row.pack_start(entry, True, True, 0)
    column.pack_start(row, False, False, 0)
scrolled = Gtk.ScrolledWindow()
scrolled.add(column)
window.add(scrolled)
window.connect("destroy", Gtk.main_quit)


def ready():
    xid = window.get_window().get_xid()
    print(json.dumps({"pid": os.getpid(), "xid": xid}), flush=True)
    return False


window.connect("map-event", lambda *_: GLib.timeout_add(300, ready) and False)
window.show_all()
Gtk.main()
