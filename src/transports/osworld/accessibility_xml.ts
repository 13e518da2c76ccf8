/**
 * OSWorld's `/accessibility` document from the driver's own observations: one `application` per
 * app with one `frame` per on-screen window, holding that window's actionable elements (the rows
 * get_window_state returns) as elements named by their role, with OSWorld's namespaced state
 * (`st:`) and component (`cp:screencoord`, `cp:size`) attributes and the value as text. It is
 * flatter than OSWorld's own dump (no containers), which is what its node filters read.
 *
 * @module
 */
import type { CallOptions, ToolHost } from "../../kernel/registry.ts";

/** OSWorld's namespace URIs for a Linux guest. */
export const OSWORLD_NS = {
  st: "https://accessibility.ubuntu.example.org/ns/state",
  attr: "https://accessibility.ubuntu.example.org/ns/attributes",
  cp: "https://accessibility.ubuntu.example.org/ns/component",
  val: "https://accessibility.ubuntu.example.org/ns/value",
} as const;

function escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
    // Characters XML 1.0 cannot hold.
    // deno-lint-ignore no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "");
}

function tag(role: string): string {
  const name = role.trim().replace(/\s+/g, "-").replace(/[^A-Za-z0-9_.-]/g, "-") || "unknown";
  return /^[A-Za-z_]/.test(name) ? name : `tag${name}`;
}

// deno-lint-ignore no-explicit-any
type Row = Record<string, any>;

function element(row: Row): string {
  const attrs = [`name="${escape(String(row.label ?? ""))}"`, 'st:enabled="true"', 'st:visible="true"'];
  if (row.frame) {
    attrs.push('st:showing="true"');
    attrs.push(`cp:screencoord="(${Math.round(row.frame.x)}, ${Math.round(row.frame.y)})"`);
    attrs.push(`cp:size="(${Math.round(row.frame.w)}, ${Math.round(row.frame.h)})"`);
  }
  if (row.focused) attrs.push('st:focused="true"');
  if (row.selected !== undefined) attrs.push(`st:${row.selected ? "checked" : "checkable"}="true"`);
  const text = row.value === undefined ? "" : escape(String(row.value));
  return `<${tag(String(row.role))} ${attrs.join(" ")}>${text}</${tag(String(row.role))}>`;
}

/** The accessibility XML of every on-screen window, read through the host's tools. */
export async function accessibilityXml(host: ToolHost, options: CallOptions): Promise<string> {
  const listed = await host.call("list_windows", {}, options);
  const windows = ((listed.structuredContent?.windows ?? []) as Row[]).filter((w) => w.is_on_screen && w.pid);
  const apps = new Map<string, string[]>();
  for (const w of windows) {
    const state = await host.call("get_window_state", {
      pid: w.pid,
      window_id: w.window_id,
      include_screenshot: false,
    }, options);
    if (state.isError) continue;
    const s = state.structuredContent as Row;
    const b = s.bounds ?? w.bounds ?? { x: 0, y: 0, width: 0, height: 0 };
    const frame = `<frame name="${escape(String(s.title ?? ""))}" st:showing="true" st:visible="true" ` +
      `cp:screencoord="(${b.x}, ${b.y})" cp:size="(${b.width}, ${b.height})">` +
      (s.elements as Row[]).map(element).join("") + "</frame>";
    const app = String(w.app_name ?? w.pid);
    apps.set(app, [...(apps.get(app) ?? []), frame]);
  }
  const ns = Object.entries(OSWORLD_NS).map(([prefix, uri]) => `xmlns:${prefix}="${uri}"`).join(" ");
  const body = [...apps].map(([name, frames]) =>
    `<application name="${escape(name)}">${frames.join("")}</application>`
  )
    .join("");
  return `<desktop-frame ${ns} name="main">${body}</desktop-frame>`;
}
