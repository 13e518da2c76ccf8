/**
 * What toolkit a process uses, from /proc: which libraries it mapped and which
 * helper processes it spawned. Decides which background routes can land.
 *
 * @module
 */
import type { Toolkit } from "../../../../ports/input.ts";

async function readText(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return "";
  }
}

/** Direct and indirect children of a process (one level of /proc scan, then recursion). */
async function descendants(pid: number): Promise<number[]> {
  const parents = new Map<number, number[]>();
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = await readText(`/proc/${entry.name}/stat`);
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (!Number.isFinite(ppid)) continue;
    const list = parents.get(ppid) ?? [];
    list.push(Number(entry.name));
    parents.set(ppid, list);
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length && out.length < 256) {
    for (const child of parents.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** Classifies a process; cached per pid by the caller. */
export async function detectToolkit(pid: number): Promise<Toolkit> {
  const cmdline = (await readText(`/proc/${pid}/cmdline`)).split("\0");
  const exe = (cmdline[0] ?? "").split("/").pop() ?? "";
  if (/chrom|electron|brave|msedge|code$/.test(exe) || cmdline.some((a) => a.startsWith("--type=renderer"))) {
    return "chromium";
  }
  const children = await descendants(pid);
  for (const child of children) {
    const childCmd = await readText(`/proc/${child}/cmdline`);
    if (childCmd.includes("--type=renderer") || childCmd.includes("--type=zygote")) return "chromium";
    if (childCmd.includes("WebKitWebProcess") || childCmd.includes("WebKitNetworkProcess")) return "webkit";
  }
  const maps = await readText(`/proc/${pid}/maps`);
  if (maps.includes("libwebkit2gtk") || maps.includes("libwebkitgtk")) return "webkit";
  if (maps.includes("/libxul.so")) return "gecko";
  if (maps.includes("libgtk-4.so")) return "gtk4";
  if (maps.includes("libgtk-3.so")) return "gtk3";
  if (/libQt[56]Core/.test(maps)) return "qt";
  if (maps.includes("libXt.so")) return "xt";
  return "unknown";
}
