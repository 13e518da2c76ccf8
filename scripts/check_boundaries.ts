/**
 * Import boundaries and content rules (STYLE.md S9), checked over every non-test source file.
 * Each folder says what it may import (an allow-list, as Playwright's DEPS.list), and the folders
 * form layers that import only downwards:
 *
 *     ports < lib < kernel < engine < features < tools < transports < entry (src/*.ts)
 *     ffi < backends (which implement ports; src/backends/mod.ts alone picks one)
 *
 * An import that runs upwards today is listed in {@linkcode UPWARD} with its reason; a listed
 * import that no longer exists fails too, so the list only shrinks. The neutral folders also may
 * not contain OS work: `/proc`, `Deno.Command`, `Deno.build.os`, PATH parsing, Unix sockets,
 * package manager invocations or AT-SPI role names.
 *
 *     deno run -A scripts/check_boundaries.ts     (exit 1 and a list on violation)
 *
 * @module
 */
import { dirname, join, relative, resolve } from "node:path";

const repoRoot = resolve(new URL("..", import.meta.url).pathname);

/** One broken rule. */
export interface Violation {
  file: string;
  /** The imported path or package, or the offending text of a content rule. */
  imports: string;
  rule: string;
}

/** What files under a folder may import, and what they may not contain. */
export interface FolderRule {
  /** Rule name, for messages and tests. */
  name: string;
  /** Which files it governs (repository-relative path). */
  applies(file: string): boolean;
  /** Whether `file` may import the repository path `to`. */
  mayImport(file: string, to: string): boolean;
  /** Bare specifiers allowed (npm packages by import-map name, `node:` built-ins). */
  packages: RegExp;
  /** Content rules: a pattern the file must not match, and why. */
  content?: readonly ContentRule[];
}

/** A pattern a file must not contain. */
export interface ContentRule {
  name: string;
  pattern: RegExp;
  why: string;
}

const under = (...folders: string[]) => (to: string) => folders.some((f) => to.startsWith(f));
const PORTS = under("src/ports/");
const LIB = under("src/lib/");
const KERNEL = under("src/kernel/");
const ENGINE = under("src/engine/");
const FEATURES = under("src/features/");
const VERSION = (to: string) => to === "src/version.ts";
const OS_FOLDER = /^src\/backends\/(linux|darwin|windows|wayland)\//;
const FEATURE = /^src\/features\/([a-z_]+)\//;
const NODE = /^node:/;
/** Kernel modules a back end may use: the call's abort reasons, caller-path checks, health probes. */
const KERNEL_FOR_BACKENDS = /^src\/kernel\/(call_abort|safe_files|health_probes|deferred_backend)\.ts$/;
/** What the Wayland back end may reuse of the Linux one: everything but the X11 parts. */
const LINUX_SHARED = (to: string) =>
  to.startsWith("src/backends/linux/") && !to.startsWith("src/backends/linux/x11/") &&
  !/^src\/backends\/linux\/(mod|screen|windows|clipboard|input|cursor)\.ts$/.test(to);

/**
 * Imports that run upwards today, each with why; the deeper unifications of issue 25 remove them
 * (runtime state as slots features register; the agent cursor's follow hooks as an engine port).
 */
export const UPWARD: readonly { file: string; to: string; why: string }[] = [
  ...[
    "permissions/launch_policy.ts",
    "permissions/resource_scope.ts",
  ].map((f) => ({
    file: "src/kernel/runtime_state.ts",
    to: `src/features/${f}`,
    why: "RuntimeState still takes the permission policies (the features' stores are slots)",
  })),
  ...["click", "drag", "keys", "scroll"].map((f) => ({
    file: `src/engine/${f}.ts`,
    to: "src/features/agent_cursor/follow.ts",
    why: "actions move the agent cursor before their input goes out",
  })),
  {
    file: "src/transports/network/grpc/computer_service.ts",
    to: "src/engine/capture_pipeline.ts",
    why: "ComputerService.Screenshot runs the capture pipeline itself (STYLE.md section 10, S8)",
  },
  {
    file: "src/transports/cli/mod.ts",
    to: "src/features/recording/report.ts",
    why: "`cua-driver report` renders a recording folder without a runtime (no tool to call)",
  },
  ...["turn_target", "policy"].map((f) => ({
    file: "src/transports/view/call_feed.ts",
    to: `src/features/recording/${f}.ts`,
    why: "the live view names a call's element and redacts its arguments as the recorder does",
  })),
  {
    file: "src/transports/osworld/actions.ts",
    to: "src/engine/key_names.ts",
    why: "pyautogui's key names are mapped onto the driver's before a call (OSWorld's /execute)",
  },
  ...["action_result", "return_state", "successor_state"].map((f) => ({
    file: "src/kernel/registry.ts",
    to: `src/engine/${f}.ts`,
    why: "the registry applies return_state to every action tool's result; it belongs in the action path",
  })),
  {
    file: "src/backends/wayland/input.ts",
    to: "src/backends/linux/x11/input/toolkit.ts",
    why: "the toolkit of a window's process (by its libraries) is the same question on X11 and Wayland",
  },
  ...["mutter_keyboard", "keymap_text"].map((f) => ({
    file: `src/backends/wayland/${f}.ts`,
    to: "src/backends/linux/x11/input/keysyms.ts",
    why: "keysyms are XKB's, shared by X11 and Wayland keymaps; they should move out of x11/",
  })),
  {
    file: "src/backends/linux/mod.ts",
    to: "src/backends/wayland/session.ts",
    why: "the Linux back end asks the Wayland session detector first (issue 26); belongs in backends/mod.ts",
  },
];

function upward(file: string, to: string): boolean {
  return UPWARD.some((u) => u.file === file && u.to === to);
}

/** AT-SPI role names with a space: never spelled in the core or tools, which speak `AxRole`. */
const ATSPI_ROLE_NAMES = [
  "push button",
  "check box",
  "check menu item",
  "radio button",
  "radio menu item",
  "toggle button",
  "combo box",
  "menu item",
  "menu bar",
  "page tab",
  "page tab list",
  "scroll pane",
  "scroll bar",
  "spin button",
  "list item",
  "list box",
  "tree item",
  "tree table",
  "table cell",
  "table row",
  "popup menu",
  "tool bar",
  "status bar",
  "password text",
  "layered pane",
  "root pane",
  "glass pane",
  "split pane",
  "document frame",
  "document web",
  "tearoff menu item",
  "push button menu",
];

/** OS work the platform-neutral folders must leave to the back end. */
export const NEUTRAL_CONTENT: readonly ContentRule[] = [
  {
    name: "no-proc",
    // A path into /proc (a process's files); naming the root in a deny-list of pseudo file systems is not a read.
    pattern: /["'`]\/proc\//,
    why: "reads /proc: ask the back end (SystemBackend, AppBackend)",
  },
  {
    name: "no-deno-command",
    pattern: /\bDeno\.Command\b/,
    why: "starts a program: use SystemBackend.run or spawn",
  },
  {
    name: "no-build-os",
    pattern: /\bDeno\.build\.os\b/,
    why: "branches on the OS: the back end is chosen in src/backends/mod.ts alone",
  },
  {
    name: "no-path-parsing",
    pattern: /\benv\.get\(\s*["'`]PATH["'`]\s*\)|\bPATHEXT\b/,
    why: "searches PATH: use SystemBackend.findExecutable",
  },
  {
    name: "no-unix-socket",
    pattern: /transport:\s*["'`]unix["'`]/,
    why: "opens a Unix socket: use SystemBackend.sockets",
  },
  {
    name: "no-package-manager",
    pattern: /["'`](apt-get|apt|dpkg|dnf|yum|pacman|zypper|brew|winget)["'`]/,
    why: "runs a package manager: use SystemBackend.packages",
  },
  {
    name: "no-atspi-roles",
    pattern: new RegExp(`["'\`/](${ATSPI_ROLE_NAMES.join("|")})["'\`/]`),
    why: "matches an AT-SPI role name: decide on AxRole (src/ports/accessibility.ts)",
  },
];

/** The allow-lists, most specific first; the first rule that applies to a file governs it. */
export const RULES: readonly FolderRule[] = [
  {
    name: "ffi",
    applies: (f) => f.startsWith("ffi/"),
    mayImport: (_f, to) => to.startsWith("ffi/"),
    packages: /^$/,
    content: [{
      name: "dlopen-in-open",
      pattern: /\bDeno\.dlopen\b/,
      why: "opens a library: only ffi/_open.ts calls Deno.dlopen",
    }],
  },
  {
    name: "ports",
    applies: (f) => PORTS(f),
    mayImport: (_f, to) => PORTS(to),
    packages: /^$/,
    content: NEUTRAL_CONTENT,
  },
  {
    name: "lib",
    applies: (f) => LIB(f),
    mayImport: (_f, to) => LIB(to) || PORTS(to),
    packages: NODE,
  },
  {
    name: "kernel",
    applies: (f) => KERNEL(f),
    mayImport: (f, to) => KERNEL(to) || LIB(to) || PORTS(to) || VERSION(to) || upward(f, to),
    packages: /^(yaml|node:.*)$/,
    content: NEUTRAL_CONTENT,
  },
  {
    name: "engine",
    applies: (f) => ENGINE(f),
    mayImport: (f, to) => ENGINE(to) || KERNEL(to) || LIB(to) || PORTS(to) || upward(f, to),
    packages: /^(node:.*)$/,
    content: NEUTRAL_CONTENT,
  },
  {
    name: "features",
    applies: (f) => FEATURES(f),
    // A feature imports itself and the layers below, never another feature.
    mayImport: (f, to) =>
      to.startsWith(`src/features/${FEATURE.exec(f)![1]}/`) || ENGINE(to) || KERNEL(to) || LIB(to) ||
      PORTS(to) || VERSION(to),
    packages: /^(yaml|node:.*)$/,
    content: NEUTRAL_CONTENT,
  },
  {
    name: "tools",
    applies: (f) => f.startsWith("tools/"),
    mayImport: (_f, to) =>
      to.startsWith("tools/") || FEATURES(to) || ENGINE(to) || KERNEL(to) || LIB(to) || PORTS(to) ||
      VERSION(to),
    packages: /^(node:.*)$/,
    content: NEUTRAL_CONTENT,
  },
  {
    name: "backends-selector",
    applies: (f) => f === "src/backends/mod.ts",
    mayImport: (_f, to) =>
      PORTS(to) || /^src\/backends\/(linux|darwin|windows|wayland)\/(mod|system|sockets)\.ts$/.test(to) ||
      to === "src/backends/unsupported.ts",
    packages: /^$/,
  },
  {
    name: "backends-shared",
    applies: (f) =>
      f === "src/backends/unsupported.ts" || f.startsWith("src/backends/posix/") ||
      f.startsWith("src/backends/fake/"),
    mayImport: (f, to) =>
      PORTS(to) || LIB(to) || to.startsWith("ffi/_") ||
      (f.startsWith("src/backends/posix/") && to.startsWith("src/backends/posix/")) ||
      (f.startsWith("src/backends/fake/") && to.startsWith("src/backends/fake/")),
    packages: NODE,
  },
  {
    name: "backends-os",
    applies: (f) => OS_FOLDER.test(f),
    mayImport: (f, to) => {
      const os = OS_FOLDER.exec(f)![1];
      const ffiOs = os === "wayland" ? "linux" : os;
      return to.startsWith(`src/backends/${os}/`) || to.startsWith(`ffi/${ffiOs}/`) ||
        to.startsWith("ffi/_") ||
        PORTS(to) || LIB(to) || KERNEL_FOR_BACKENDS.test(to) || to === "src/backends/unsupported.ts" ||
        (os !== "windows" && to.startsWith("src/backends/posix/")) ||
        (os === "wayland" && LINUX_SHARED(to)) ||
        upward(f, to);
    },
    packages: NODE,
    content: [{
      name: "no-bare-error",
      pattern: /\bthrow new Error\(/,
      why: "throws a bare Error: throw DriverError, or NativeError from ffi/_errors.ts",
    }],
  },
  {
    name: "transports",
    applies: (f) => f.startsWith("src/transports/"),
    // The permission configuration comes from the launcher's flags, which the CLI parses.
    mayImport: (f, to) =>
      to.startsWith("src/transports/") || KERNEL(to) || LIB(to) || PORTS(to) || to === "tools/mod.ts" ||
      VERSION(to) || to.startsWith("src/features/permissions/") || upward(f, to),
    packages:
      /^(@modelcontextprotocol\/sdk\/.*|@bufbuild\/protobuf(\/.*)?|@connectrpc\/connect(-node)?|node:.*)$/,
  },
  {
    name: "entry",
    applies: (f) => /^src\/[a-z_]+\.ts$/.test(f),
    mayImport: (_f, to) =>
      !to.startsWith("ffi/") && !OS_FOLDER.test(to) && !to.startsWith("src/backends/posix/"),
    packages: /^(node:.*)$/,
  },
];

/** The rule governing `file`, or null for files no rule covers. */
export function ruleFor(file: string): FolderRule | null {
  return RULES.find((rule) => rule.applies(file)) ?? null;
}

/** Why `file` may not import `to` (a repository path or a bare specifier), or null when it may. */
export function importViolation(file: string, to: string, bare = false): string | null {
  const rule = ruleFor(file);
  if (!rule || to.startsWith("src/transports/network/grpc/gen/")) return null;
  if (bare) return rule.packages.test(to) ? null : `${rule.name}: may not import the package "${to}"`;
  return rule.mayImport(file, to) ? null : `${rule.name}: may not import ${to}`;
}

/** The content rules `text` breaks, with the offending text. */
export function contentViolations(file: string, text: string): { rule: string; match: string }[] {
  const rule = ruleFor(file);
  const out: { rule: string; match: string }[] = [];
  for (const content of rule?.content ?? []) {
    if (content.name === "dlopen-in-open" && file === "ffi/_open.ts") continue;
    // Path syntax, not OS work: file_paths.ts stands in for node:path (whose import loads
    // Deno's Node layer on a one-shot CLI call) and needs the host's separator as node:path does.
    if (content.name === "no-build-os" && file === "src/lib/file_paths.ts") continue;
    const code = stripComments(text);
    const match = content.pattern.exec(code);
    if (match) out.push({ rule: `${rule!.name}/${content.name}: ${content.why}`, match: match[0] });
  }
  return out;
}

/** The text without comments (a comment may name what the code must not do). */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

function isTestFile(path: string): boolean {
  return /_test(_util|_kit)?\.ts$/.test(path) || /\/_fake(_[a-z_]+\.ts$|\/)/.test(path);
}

async function* sourceFiles(root: string, dir: string): AsyncGenerator<string> {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(join(root, dir))];
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory && !["node_modules", "gen", "dist", "fixtures"].includes(entry.name)) {
      yield* sourceFiles(root, path);
    } else if (entry.isFile && path.endsWith(".ts") && !isTestFile(path)) yield path;
  }
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)(?:\s+type)?[^"';]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** Every violation under `root` (the repository by default). */
export async function findViolations(root = repoRoot): Promise<Violation[]> {
  const violations: Violation[] = [];
  const seen = new Set<string>();
  for (const top of ["ffi", "src", "tools"]) {
    for await (const file of sourceFiles(root, top)) {
      const text = await Deno.readTextFile(join(root, file));
      for (const match of text.matchAll(IMPORT)) {
        const specifier = match[1] ?? match[2];
        const bare = !specifier.startsWith(".");
        const target = bare ? specifier : relative(root, resolve(root, dirname(file), specifier));
        const broken = importViolation(file, target, bare);
        if (broken) violations.push({ file, imports: target, rule: broken });
        if (!bare) seen.add(`${file} ${target}`);
      }
      for (const { rule, match } of contentViolations(file, text)) {
        violations.push({ file, imports: match, rule });
      }
    }
  }
  // An upward import that is gone must leave the list (checked on the repository itself only).
  if (root === repoRoot) {
    for (const u of UPWARD) {
      if (!seen.has(`${u.file} ${u.to}`)) {
        violations.push({
          file: u.file,
          imports: u.to,
          rule: "upward: listed in UPWARD but not imported any more",
        });
      }
    }
  }
  return violations;
}

if (import.meta.main) {
  const violations = await findViolations();
  for (const v of violations) console.error(`${v.file}: ${v.imports}: ${v.rule}`);
  console.log(violations.length ? `${violations.length} boundary violations` : "import boundaries hold");
  Deno.exit(violations.length ? 1 : 0);
}
