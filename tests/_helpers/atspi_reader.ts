/**
 * An independent AT-SPI reader for tests: a fresh `/usr/bin/python3` process (python3-gi's Atspi)
 * per question, so nothing the driver's own connection caches is read back.
 *
 * @module
 */
import { FIXTURE_PYTHON } from "./journal_process.ts";

const SCRIPT = `
import sys, gi
gi.require_version('Atspi', '2.0')
from gi.repository import Atspi
pid, name = int(sys.argv[1]), sys.argv[2]
def walk(a, d):
    if d > 40: return None
    try:
        t = a.get_text_iface() if (name == '' or a.get_name() == name) else None
        if t and (name != '' or a.get_editable_text_iface()):
            return t.get_text(0, t.get_character_count())
        for i in range(a.get_child_count()):
            c = a.get_child_at_index(i)
            if c:
                r = walk(c, d + 1)
                if r is not None: return r
    except Exception:
        return None
    return None
desk = Atspi.get_desktop(0)
for i in range(desk.get_child_count()):
    app = desk.get_child_at_index(i)
    if app and app.get_process_id() == pid:
        r = walk(app, 0)
        if r is not None:
            sys.stdout.write(r)
            break
`;

/**
 * The text of the node named `name` of process `pid` (the first editable text when `name` is
 * empty), or null when there is none.
 */
export async function atspiText(
  env: Record<string, string>,
  pid: number,
  name: string,
): Promise<string | null> {
  const out = await new Deno.Command(FIXTURE_PYTHON, {
    args: ["-c", SCRIPT, String(pid), name],
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "null",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  return out.success && text !== "" ? text : null;
}
