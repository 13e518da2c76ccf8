/**
 * Command-line parsing: global flags anywhere, the first positional is the
 * command, the rest belong to it.
 *
 * @module
 */

/** Global flags that take a value (the next token or `--flag=value`). */
const VALUE_FLAGS = new Set([
  "--desktop",
  "--screenshot-out-file",
  "--socket",
  "--permission-mode",
  "--grant",
  "--capability-manifest",
  "--app",
  "--tools",
]);

/** Global switches. Any other `--flag` belongs to the command (a tool's `--key value`). */
const SWITCHES = new Set([
  "--help",
  "--version",
  "--full",
  "--pretty",
  "--direct",
  "--approve-capability-manifest",
  "--dangerously-bypass-approvals",
  "--legacy-tools",
]);

/** Parsed command line. */
export interface ParsedArgs {
  command: string | null;
  positionals: string[];
  flags: Map<string, string | true>;
  /** Repeatable flags keep every value. */
  repeated: Map<string, string[]>;
}

/**
 * Splits argv into global flags and the command's own tokens. Unknown `--flags`
 * stay in `positionals`, in order, for the command to judge.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const flags = new Map<string, string | true>();
  const repeated = new Map<string, string[]>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    const eq = token.indexOf("=");
    const name = eq >= 0 ? token.slice(0, eq) : token;
    if (token.startsWith("--") && (VALUE_FLAGS.has(name) || SWITCHES.has(name))) {
      let value: string | true = true;
      if (eq >= 0) value = token.slice(eq + 1);
      else if (VALUE_FLAGS.has(name) && i + 1 < argv.length) value = argv[++i];
      flags.set(name, value);
      if (typeof value === "string") repeated.set(name, [...(repeated.get(name) ?? []), value]);
      continue;
    }
    if (token === "-h") flags.set("--help", true);
    else if (token === "-V") flags.set("--version", true);
    else positionals.push(token);
  }
  return { command: positionals.shift() ?? null, positionals, flags, repeated };
}

/**
 * Turns a tool's command-line arguments into an arguments object: one JSON
 * object, `-` for JSON on stdin, or `--key value` pairs whose values are read
 * as JSON when they parse (numbers, booleans, arrays) and as strings otherwise.
 */
export function toolArguments(tokens: readonly string[], stdinText?: string): Record<string, unknown> {
  if (tokens.length === 1 && tokens[0] === "-") return parseObject(stdinText ?? "");
  if (tokens.length === 1 && tokens[0].trimStart().startsWith("{")) return parseObject(tokens[0]);
  const args: Record<string, unknown> = {};
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (!token.startsWith("--")) {
      throw new SyntaxError(`Unexpected argument "${token}": pass one JSON object or --key value pairs`);
    }
    const eq = token.indexOf("=");
    const key = (eq >= 0 ? token.slice(2, eq) : token.slice(2)).replaceAll("-", "_");
    const raw = eq >= 0
      ? token.slice(eq + 1)
      : i + 1 < tokens.length && !tokens[i + 1].startsWith("--")
      ? tokens[++i]
      : "true";
    args[key] = parseValue(raw);
  }
  return args;
}

function parseObject(text: string): Record<string, unknown> {
  const trimmed = text.replace(/^\uFEFF/, "").trim();
  if (trimmed === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    throw new SyntaxError(`Arguments are not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new SyntaxError("Arguments must be a JSON object, for example '{\"pid\": 1234}'");
  }
  return value as Record<string, unknown>;
}

function parseValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
