/**
 * The clipboard capability: reading and writing the system clipboard.
 *
 * @module
 */

/** What the clipboard holds. */
export interface ClipboardContent {
  /** Available type names (MIME types or atom names). */
  types: string[];
  text: string | null;
  /** PNG bytes when an image flavour is offered. */
  imagePng: Uint8Array | null;
}

/** Clipboard access. */
export interface ClipboardBackend {
  read(options: { text: boolean; image: boolean }): Promise<ClipboardContent>;
  writeText(text: string): Promise<string[]>;
  writeImage(png: Uint8Array): Promise<string[]>;
  writeFiles(paths: string[]): Promise<string[]>;
}
