/**
 * The release check behind check_for_update: one GitHub releases request with a hard
 * two-second budget, an answer cached for 20 hours, and an honest "unknown" (with the
 * error text) when the network does not answer. Never run at startup.
 *
 * @module
 */
import { join } from "node:path";
import { VERSION } from "../version.ts";

/** The releases listing asked by default (the reference driver's repository). */
export const DEFAULT_UPDATE_URL = "https://api.github.com/repos/trycua/cua/releases?per_page=50";
/** How long an answer is reused. */
export const UPDATE_CACHE_TTL_MS = 20 * 60 * 60 * 1000;
/** The hard budget of one check, request and body together. */
export const UPDATE_TIMEOUT_MS = 2000;
/** How this driver is updated: it runs from a checkout and compiles with `deno task compile`. */
export const INSTALL_COMMAND = "git pull && deno task compile";
const RELEASES_PAGE = "https://github.com/trycua/cua/releases";

/** Release channels. */
export type UpdateChannel = "stable" | "nightly";

/** The answer of check_for_update. */
export interface UpdateCheck {
  current_version: string;
  current_channel: "stable";
  selected_channel: UpdateChannel;
  latest_version: string | null;
  /** Null when the latest version could not be learned. */
  update_available: boolean | null;
  status: "unknown" | "up_to_date" | "update_available";
  source: "github_releases";
  source_url: string;
  /** When the answer was obtained (ISO 8601); the original time on a cache hit. */
  checked_at: string;
  cache_hit: boolean;
  install_command: string;
  release_notes_url: string;
  error: string | null;
}

/** Options of {@linkcode checkForUpdate}. */
export interface UpdateCheckOptions {
  channel?: UpdateChannel;
  /** Ask GitHub even when a fresh cached answer exists. */
  noCache?: boolean;
  /** Cancels the check (the caller went away). */
  signal?: AbortSignal;
  /** Releases URL; default `CUA_DRIVER_UPDATE_URL`, else {@linkcode DEFAULT_UPDATE_URL}. */
  url?: string;
  /** Cache file: `update-check.json` in the driver's cache directory (`SystemBackend.cacheDir`). */
  cachePath: string;
  timeoutMs?: number;
  now?: () => number;
}

interface CacheEntry {
  url: string;
  channel: UpdateChannel;
  checked_at_ms: number;
  latest_version: string | null;
  release_notes_url: string;
}

interface Release {
  tag_name?: unknown;
  prerelease?: unknown;
  draft?: unknown;
  html_url?: unknown;
}

/**
 * Checks for a newer release. Never throws for network trouble: the answer is then
 * `status: "unknown"`, `update_available: null` and `error` says what happened.
 */
export async function checkForUpdate(options: UpdateCheckOptions): Promise<UpdateCheck> {
  const channel = options.channel ?? "stable";
  const url = options.url ?? (Deno.env.get("CUA_DRIVER_UPDATE_URL") || DEFAULT_UPDATE_URL);
  const { cachePath } = options;
  const now = options.now ?? Date.now;
  const base = {
    current_version: VERSION,
    current_channel: "stable" as const,
    selected_channel: channel,
    source: "github_releases" as const,
    source_url: url,
    install_command: INSTALL_COMMAND,
  };
  if (!options.noCache) {
    const cached = await readCache(cachePath);
    if (
      cached && cached.url === url && cached.channel === channel &&
      now() - cached.checked_at_ms < UPDATE_CACHE_TTL_MS
    ) {
      return {
        ...base,
        ...verdict(cached.latest_version),
        checked_at: iso(cached.checked_at_ms),
        cache_hit: true,
        release_notes_url: cached.release_notes_url,
        error: null,
      };
    }
  }
  const started = now();
  try {
    const releases = await fetchReleases(url, options.timeoutMs ?? UPDATE_TIMEOUT_MS, options.signal);
    const latest = latestRelease(releases, channel, url === DEFAULT_UPDATE_URL);
    const entry: CacheEntry = {
      url,
      channel,
      checked_at_ms: started,
      latest_version: latest?.version ?? null,
      release_notes_url: latest?.url ?? RELEASES_PAGE,
    };
    if (latest) await writeCache(cachePath, entry);
    return {
      ...base,
      ...verdict(entry.latest_version),
      checked_at: iso(started),
      cache_hit: false,
      release_notes_url: entry.release_notes_url,
      error: latest ? null : `No ${channel} cua-driver release in the ${releases.length} releases listed`,
    };
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    return {
      ...base,
      ...verdict(null),
      checked_at: iso(started),
      cache_hit: false,
      release_notes_url: RELEASES_PAGE,
      error: describe(error),
    };
  }
}

function verdict(latest: string | null): Pick<UpdateCheck, "latest_version" | "update_available" | "status"> {
  if (latest === null) return { latest_version: null, update_available: null, status: "unknown" };
  const newer = compareVersions(latest, VERSION) > 0;
  return {
    latest_version: latest,
    update_available: newer,
    status: newer ? "update_available" : "up_to_date",
  };
}

/** One GET of the releases listing; request and body share the hard budget. */
async function fetchReleases(url: string, timeoutMs: number, signal?: AbortSignal): Promise<Release[]> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Belt and braces: whatever the network layer does with the abort, the answer comes in time.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`No answer from ${url} within ${timeoutMs} ms`)),
      timeoutMs + 50,
    );
  });
  const work = (async () => {
    try {
      const response = await fetch(url, {
        signal: combined,
        headers: { accept: "application/vnd.github+json", "user-agent": `cua-driver/${VERSION}` },
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`${url} answered HTTP ${response.status} ${response.statusText}`.trim());
      }
      const body = await response.json();
      if (!Array.isArray(body)) throw new Error(`${url} did not answer with a list of releases`);
      return body as Release[];
    } catch (error) {
      if (timeout.aborted && !signal?.aborted) {
        throw new Error(`No answer from ${url} within ${timeoutMs} ms`);
      }
      throw error;
    }
  })();
  work.catch(() => {}); // The deadline may win; the late failure is not unhandled.
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The newest release of the channel; on the default listing only tags that name the driver. */
export function latestRelease(
  releases: Release[],
  channel: UpdateChannel,
  driverTagsOnly: boolean,
): { version: string; url: string } | null {
  let best: { version: string; url: string } | null = null;
  for (const release of releases) {
    if (typeof release.tag_name !== "string" || release.draft === true) continue;
    if (channel === "stable" && release.prerelease === true) continue;
    if (driverTagsOnly && !/driver/i.test(release.tag_name)) continue;
    const version = /(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/.exec(release.tag_name)?.[1];
    if (!version || (channel === "stable" && version.includes("-"))) continue;
    if (best === null || compareVersions(version, best.version) > 0) {
      best = { version, url: typeof release.html_url === "string" ? release.html_url : RELEASES_PAGE };
    }
  }
  return best;
}

/** Semantic-version order: numeric core, then a release above its pre-releases. */
export function compareVersions(a: string, b: string): number {
  const [coreA, preA] = a.split("-", 2), [coreB, preB] = b.split("-", 2);
  const partsA = coreA.split(".").map(Number), partsB = coreB.split(".").map(Number);
  for (let i = 0; i < 3; i++) {
    const diff = (partsA[i] ?? 0) - (partsB[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  if (preA === preB) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  return preA < preB ? -1 : 1;
}

async function readCache(path: string): Promise<CacheEntry | null> {
  try {
    const entry = JSON.parse(await Deno.readTextFile(path));
    return typeof entry?.checked_at_ms === "number" && typeof entry?.url === "string" ? entry : null;
  } catch {
    return null;
  }
}

async function writeCache(path: string, entry: CacheEntry): Promise<void> {
  try {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    const tmp = `${path}.${Deno.pid}.tmp`;
    await Deno.writeTextFile(tmp, JSON.stringify(entry) + "\n");
    await Deno.rename(tmp, path);
  } catch {
    // A cache that cannot be written only costs another request next time.
  }
}

/** The error and its causes, innermost detail last ("fetch failed: ... dns error: ..."). */
function describe(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error && parts.length < 4; e = e.cause) {
    if (!parts.some((p) => p.includes(e instanceof Error ? e.message : ""))) parts.push(e.message);
  }
  return parts.join(": ") || String(error);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
