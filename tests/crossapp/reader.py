"""An independent AT-SPI reader for the cross-app catalog: Debian's python3 with libatspi
(gir1.2-atspi-2.0), a fresh process per query, sharing no code with the driver.

    reader.py walk PID            the on-screen objects of the app, as JSON lines
    reader.py find PID ROLE NAME  the first object of that role (and exact name, "" for any)
                                  with its states, text, value and extents, as JSON
    reader.py texts PID ROLE      the text of every object of that role, as a JSON list
    reader.py states PID ROLE NAME  every object of that role (and name, "" for any), top to
                                  bottom: states, text, caret, value and extents, as JSON

"On screen" follows what a screen reader sees: SHOWING, or for toolkits that never set
it below their windows (GTK 4), VISIBLE with a non-empty area. Huge tables (a
spreadsheet) are read by their visible range through the Table interface.
"""
import json
import sys

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

HUGE = 10000
S = Atspi.StateType


def app_of(pid):
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        try:
            if app is not None and app.get_process_id() == pid and app.get_child_count() > 0:
                return app
        except Exception:
            continue
    return None


def extents(node):
    try:
        if "Component" not in node.get_interfaces():
            return None
        e = node.get_extents(Atspi.CoordType.SCREEN)
        return [e.x, e.y, e.width, e.height]
    except Exception:
        return None


def describe(node, depth):
    states = node.get_state_set()
    ifaces = node.get_interfaces()
    try:
        actions = node.get_n_actions() if "Action" in ifaces else 0
    except Exception:
        actions = 0
    return {
        "role": node.get_role_name(),
        "name": node.get_name() or "",
        "depth": depth,
        "showing": states.contains(S.SHOWING),
        "visible": states.contains(S.VISIBLE),
        "enabled": states.contains(S.ENABLED) or states.contains(S.SENSITIVE),
        "checked": states.contains(S.CHECKED) or states.contains(S.PRESSED),
        "selected": states.contains(S.SELECTED),
        "focused": states.contains(S.FOCUSED),
        "editable": states.contains(S.EDITABLE),
        "actions": actions,
        "ifaces": list(ifaces),
        "ext": extents(node),
    }


def children(node):
    ifaces = node.get_interfaces()
    states = node.get_state_set()
    if "Table" in ifaces and states.contains(S.MANAGES_DESCENDANTS):
        table = node.get_table_iface() if hasattr(node, "get_table_iface") else node
        try:
            if table.get_n_rows() * table.get_n_columns() > HUGE:
                return visible_cells(node)
        except Exception:
            pass
    out = []
    for i in range(min(node.get_child_count(), HUGE)):
        child = node.get_child_at_index(i)
        if child is not None:
            out.append(child)
    return out


def visible_cells(table):
    e = table.get_extents(Atspi.CoordType.SCREEN)

    def corner(x, y):
        cell = table.get_accessible_at_point(x, y, Atspi.CoordType.SCREEN)
        index = cell.get_index_in_parent()
        return table.get_row_at_index(index), table.get_column_at_index(index)

    r0, c0 = corner(e.x + 2, e.y + 2)
    r1, c1 = corner(e.x + e.width - 3, e.y + e.height - 3)
    return [table.get_accessible_at(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]


def on_screen_nodes(pid, limit=20000, full=True):
    """Yields (node, info) for every on-screen object of the app, pre-order, pruning hidden
    subtrees. With full=False, info has only role, name and depth (fewer calls per object)."""
    app = app_of(pid)
    if app is None:
        return
    gtk4 = app.get_toolkit_name() == "GTK" and app.get_toolkit_version().startswith("4.")
    stack = [(app.get_child_at_index(i), 1) for i in reversed(range(app.get_child_count()))]
    count = 0
    while stack and count < limit:
        node, depth = stack.pop()
        if node is None:
            continue
        try:
            states = node.get_state_set()
            shown = states.contains(S.SHOWING)
            if not shown and depth > 1 and gtk4 and states.contains(S.VISIBLE):
                ext = extents(node)
                shown = ext is None or (ext[2] > 1 and ext[3] > 1)
            if depth > 1 and not shown:
                continue
            info = describe(node, depth) if full else {
                "role": node.get_role_name(), "name": node.get_name() or "", "depth": depth,
            }
        except Exception:
            continue
        count += 1
        yield node, info
        try:
            kids = children(node)
        except Exception:
            kids = []
        stack.extend((kid, depth + 1) for kid in reversed(kids))


def walk(pid):
    return [info for _, info in on_screen_nodes(pid)]


def text_of(node):
    try:
        if "Text" in node.get_interfaces():
            return node.get_text(0, node.get_character_count())
    except Exception:
        pass
    return None


def value_of(node):
    try:
        if "Value" in node.get_interfaces():
            return node.get_current_value()
    except Exception:
        pass
    return None


def find(pid, role, name):
    app = app_of(pid)
    stack = [app] if app else []
    seen = 0
    while stack and seen < 20000:
        node = stack.pop()
        seen += 1
        try:
            if node.get_role_name() == role and (name == "" or node.get_name() == name):
                info = describe(node, 0)
                info["text"] = text_of(node)
                info["value"] = value_of(node)
                return info
            stack.extend(reversed(children(node)))
        except Exception:
            continue
    return None


def states(pid, role, name):
    out = []
    for node, light in on_screen_nodes(pid, full=False):
        if light["role"] != role or (name != "" and light["name"] != name):
            continue
        info = describe(node, light["depth"])
        if info["ext"] is None or info["ext"][2] <= 1:
            continue
        info["text"] = text_of(node)
        info["value"] = value_of(node)
        try:
            info["caret"] = node.get_caret_offset() if "Text" in node.get_interfaces() else None
        except Exception:
            info["caret"] = None
        out.append(info)
    out.sort(key=lambda n: (n["ext"][1], n["ext"][0]))
    return out


def texts(pid, role):
    app = app_of(pid)
    stack = [app] if app else []
    out = []
    while stack and len(out) < 5000:
        node = stack.pop()
        try:
            if node.get_role_name() == role:
                out.append(text_of(node) if text_of(node) is not None else node.get_name())
            stack.extend(reversed(children(node)))
        except Exception:
            continue
    return out


if __name__ == "__main__":
    command, pid = sys.argv[1], int(sys.argv[2])
    if command == "walk":
        print(json.dumps(walk(pid)))
    elif command == "find":
        print(json.dumps(find(pid, sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "")))
    elif command == "states":
        print(json.dumps(states(pid, sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "")))
    elif command == "texts":
        print(json.dumps(texts(pid, sys.argv[3])))
    else:
        sys.exit(f"unknown command {command}")
