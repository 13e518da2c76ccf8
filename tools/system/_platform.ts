/**
 * The platform name the system tools report, in the reference's spelling
 * (`linux`, `darwin`, `win32`).
 *
 * @module
 */
import type { ToolContext } from "../../src/kernel/tool.ts";

/** Platform names of the reference (contract.md §1.10). */
export type PlatformName = "linux" | "darwin" | "win32";

/** The back end's OS in the reference's spelling (the fake back end stands for Linux). */
export function platformName(ctx: Pick<ToolContext, "backend">): PlatformName {
  const os = ctx.backend.os;
  return os === "windows" ? "win32" : os === "darwin" ? "darwin" : "linux";
}
