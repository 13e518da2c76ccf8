/**
 * Installed apps on Windows, the way the Start menu knows them: `.lnk` shortcuts in the
 * per-user and all-users Start-menu folders, and the App Paths registry key (programs
 * like `wordpad.exe` that Run can start by name).
 *
 * @module
 */
import { readRegistryString, registrySubkeys } from "./registry.ts";

/** One installed app. */
export interface AppEntry {
  /** Display name ("WordPad"). */
  name: string;
  /** What launching runs: a `.lnk` shortcut or an executable path. */
  launchPath: string;
  /** "shortcut" or "app_path". */
  kind: "shortcut" | "app_path";
  /** Lower-case executable base name when known ("wordpad"), for matching processes. */
  key: string | null;
}

const APP_PATHS = "Software\\Microsoft\\Windows\\CurrentVersion\\App Paths";

/** The Start-menu program folders of this user and of all users. */
export function startMenuFolders(
  env: (name: string) => string | undefined = (n) => Deno.env.get(n),
): string[] {
  const folders: string[] = [];
  const appData = env("APPDATA");
  const programData = env("ProgramData") ?? env("ALLUSERSPROFILE");
  if (appData) folders.push(`${appData}\\Microsoft\\Windows\\Start Menu\\Programs`);
  if (programData) folders.push(`${programData}\\Microsoft\\Windows\\Start Menu\\Programs`);
  return folders;
}

async function shortcuts(folder: string, depth = 0): Promise<AppEntry[]> {
  const out: AppEntry[] = [];
  try {
    for await (const entry of Deno.readDir(folder)) {
      const path = `${folder}\\${entry.name}`;
      if (entry.isDirectory && depth < 4) out.push(...await shortcuts(path, depth + 1));
      else if (entry.isFile && /\.lnk$/i.test(entry.name)) {
        const name = entry.name.replace(/\.lnk$/i, "");
        out.push({ name, launchPath: path, kind: "shortcut", key: null });
      }
    }
  } catch {
    // A missing or unreadable folder has no shortcuts.
  }
  return out;
}

/** Programs registered under App Paths (HKLM and HKCU), with their executable paths. */
export function appPaths(): AppEntry[] {
  const out: AppEntry[] = [];
  for (const root of ["LOCAL_MACHINE", "CURRENT_USER"] as const) {
    for (const exe of registrySubkeys(root, APP_PATHS)) {
      const path = readRegistryString(root, `${APP_PATHS}\\${exe}`, "")?.replace(/^"|"$/g, "");
      if (!path) continue;
      const key = exe.replace(/\.exe$/i, "").toLowerCase();
      out.push({ name: exe.replace(/\.exe$/i, ""), launchPath: path, kind: "app_path", key });
    }
  }
  return out;
}

/** Every installed app: Start-menu shortcuts first, then App Paths, without duplicate names. */
export async function installedApps(): Promise<AppEntry[]> {
  const lists = await Promise.all(startMenuFolders().map((folder) => shortcuts(folder)));
  const seen = new Set<string>();
  const out: AppEntry[] = [];
  for (const entry of [...lists.flat(), ...appPaths()]) {
    const id = entry.name.toLowerCase();
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(entry);
  }
  return out;
}
