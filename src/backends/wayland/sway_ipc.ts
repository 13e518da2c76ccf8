/**
 * sway's IPC (the i3 protocol over `$SWAYSOCK`): the layout tree, which gives every window's
 * pid, geometry, focus, visibility and shell (native xdg_shell or XWayland with its X window
 * id), none of which foreign-toplevel carries; and commands (focus one window). Other wlroots
 * compositors have no such socket and are driven from their protocols alone.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type { Rect } from "../../ports/geometry.ts";

const MAGIC = new TextEncoder().encode("i3-ipc");
const RUN_COMMAND = 0;
const GET_TREE = 4;
const GET_VERSION = 7;

/** One window of the tree. */
export interface SwayWindow {
  /** sway's container id. */
  conId: number;
  pid: number | null;
  appId: string | null;
  title: string;
  /** Where the window's content is on the layout (rect + window_rect). */
  rect: Rect;
  focused: boolean;
  visible: boolean;
  floating: boolean;
  /** `xdg_shell` or `xwayland`. */
  shell: string;
  /** The X window id of an XWayland window. */
  xid: number | null;
  /** Position in the tree walk: tiled windows first, then floating ones in stacking order. */
  order: number;
}

interface TreeNode {
  id: number;
  type: string;
  name: string | null;
  pid?: number;
  app_id?: string | null;
  shell?: string;
  window?: number | null;
  rect: Rect;
  window_rect?: Rect;
  focused: boolean;
  visible?: boolean;
  nodes?: TreeNode[];
  floating_nodes?: TreeNode[];
  window_properties?: { class?: string };
}

/** A sway IPC client: one connection per message (sway answers in order; this keeps calls independent). */
export class SwayIpc {
  constructor(readonly socket: string) {}

  /** The sway IPC socket of this session, from `SWAYSOCK`, or null. */
  static fromEnv(): SwayIpc | null {
    const socket = Deno.env.get("SWAYSOCK");
    return socket ? new SwayIpc(socket) : null;
  }

  /**
   * Sends one message and returns the parsed reply.
   *
   * @throws {DriverError} `display_unavailable` when sway does not answer.
   */
  async #message(type: number, payload = ""): Promise<unknown> {
    let connection: Deno.UnixConn;
    try {
      connection = await Deno.connect({ transport: "unix", path: this.socket });
    } catch (error) {
      throw new DriverError(
        "display_unavailable",
        `sway IPC at ${this.socket}: ${(error as Error).message}`,
        {
          hint: "sway may have exited; check SWAYSOCK",
        },
      );
    }
    try {
      const body = new TextEncoder().encode(payload);
      const header = new Uint8Array(14);
      header.set(MAGIC);
      const view = new DataView(header.buffer);
      view.setUint32(6, body.length, true);
      view.setUint32(10, type, true);
      const message = new Uint8Array(14 + body.length);
      message.set(header);
      message.set(body, 14);
      for (let sent = 0; sent < message.length;) sent += await connection.write(message.subarray(sent));
      const head = await readExactly(connection, 14);
      const length = new DataView(head.buffer).getUint32(6, true);
      return JSON.parse(new TextDecoder().decode(await readExactly(connection, length)));
    } finally {
      connection.close();
    }
  }

  /** sway's version string (`human_readable`). */
  async version(): Promise<string> {
    const reply = await this.#message(GET_VERSION) as { human_readable?: string };
    return reply.human_readable ?? "sway";
  }

  /** Every window (xdg_shell and XWayland), tiled first then floating, each list in tree order. */
  async windows(): Promise<SwayWindow[]> {
    const tree = await this.#message(GET_TREE) as TreeNode;
    const tiled: TreeNode[] = [];
    const floating: TreeNode[] = [];
    const walk = (node: TreeNode, isFloating: boolean) => {
      if ((node.type === "con" || node.type === "floating_con") && node.pid !== undefined) {
        (isFloating ? floating : tiled).push(node);
      }
      for (const child of node.nodes ?? []) walk(child, isFloating);
      for (const child of node.floating_nodes ?? []) walk(child, true);
    };
    walk(tree, false);
    return [...tiled, ...floating].map((node, order) => ({
      conId: node.id,
      pid: node.pid ?? null,
      appId: node.app_id ?? node.window_properties?.class ?? null,
      title: node.name ?? "",
      rect: contentRect(node),
      focused: node.focused,
      visible: node.visible ?? false,
      floating: floating.includes(node),
      shell: node.shell ?? "xdg_shell",
      xid: node.window ?? null,
      order,
    }));
  }

  /**
   * Runs a command (`[con_id=5] focus`).
   *
   * @throws {DriverError} `native_call_failed` with sway's error when it fails.
   */
  async command(command: string): Promise<void> {
    const replies = await this.#message(RUN_COMMAND, command) as { success: boolean; error?: string }[];
    const failed = replies.find((r) => !r.success);
    if (failed) {
      throw new DriverError("native_call_failed", `sway refused "${command}": ${failed.error ?? "?"}`);
    }
  }
}

/** The window's content on the layout: its container rect offset by the window rect inside it. */
function contentRect(node: TreeNode): Rect {
  const inner = node.window_rect;
  if (!inner || inner.width === 0) return { ...node.rect };
  return { x: node.rect.x + inner.x, y: node.rect.y + inner.y, width: inner.width, height: inner.height };
}

async function readExactly(connection: Deno.UnixConn, length: number): Promise<Uint8Array> {
  const out = new Uint8Array(length);
  for (let offset = 0; offset < length;) {
    const n = await connection.read(out.subarray(offset));
    if (n === null) throw new DriverError("display_unavailable", "sway closed its IPC connection mid-reply");
    offset += n;
  }
  return out;
}
