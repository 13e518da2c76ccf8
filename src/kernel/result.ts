/**
 * Tool results: the MCP CallTool shape every transport passes through.
 *
 * @module
 */

/** A text part. */
export interface TextPart {
  type: "text";
  text: string;
}

/** An image part: base64 data and its media type (never `mime_type`). */
export interface ImagePart {
  type: "image";
  data: string;
  mimeType: string;
}

/** One part of a tool result. */
export type ContentPart = TextPart | ImagePart;

/** What a tool call returns, before and after transport shaping. */
export interface ToolResult {
  content: ContentPart[];
  structuredContent?: Record<string, unknown>;
  isError?: true;
}

/** Builds a successful result with a structured payload and a diagnostic text. */
export function ok(structured: Record<string, unknown>, text: string, images: ImagePart[] = []): ToolResult {
  return { content: [{ type: "text", text }, ...images], structuredContent: structured };
}

/** Builds an image part from encoded bytes. */
export function imagePart(bytes: Uint8Array, mimeType: string): ImagePart {
  return { type: "image", data: base64(bytes), mimeType };
}

/** Base64 of bytes (native `Uint8Array.prototype.toBase64`: no node:buffer to load). */
export function base64(bytes: Uint8Array): string {
  return bytes.toBase64();
}

/**
 * Decodes base64 into bytes (native `Uint8Array.fromBase64`).
 *
 * @throws {SyntaxError} when `text` is not base64.
 */
export function fromBase64(text: string): Uint8Array {
  return Uint8Array.fromBase64(text);
}
