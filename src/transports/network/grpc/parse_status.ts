/**
 * A request whose protobuf cannot be parsed is the client's mistake: gRPC's
 * INVALID_ARGUMENT. connect-es 2.3 reports it as INTERNAL ("parse binary: ...") from
 * inside its handler, before any interceptor runs, so the status is corrected where the
 * response leaves: in the header block (a trailers-only error) or in the trailers.
 *
 * @module
 */
import type http2 from "node:http2";

type Headers = Record<string, string | string[] | number | undefined>;

const INTERNAL = "13";
const INVALID_ARGUMENT = "3";

/** True for connect's message for a request it could not decode (percent-encoded or not). */
function isParseFailure(message: unknown): boolean {
  if (typeof message !== "string") return false;
  let text = message;
  try {
    text = decodeURIComponent(message);
  } catch {
    // Not percent-encoded.
  }
  return text.startsWith("parse binary:");
}

/** Rewrites a grpc-status INTERNAL for an undecodable request to INVALID_ARGUMENT, in place. */
export function correctParseStatus(headers: Headers | undefined): void {
  if (!headers || String(headers["grpc-status"]) !== INTERNAL) return;
  if (!isParseFailure(headers["grpc-message"])) return;
  headers["grpc-status"] = INVALID_ARGUMENT;
  // The binary status detail still says INTERNAL: drop it rather than contradict the status.
  delete headers["grpc-status-details-bin"];
}

/**
 * Wraps a native gRPC response so that a request that could not be decoded ends with
 * INVALID_ARGUMENT instead of INTERNAL.
 */
export function withParseStatus(res: http2.Http2ServerResponse): http2.Http2ServerResponse {
  const writeHead = res.writeHead.bind(res) as (status: number, headers?: Headers) => unknown;
  const addTrailers = res.addTrailers.bind(res);
  Object.assign(res, {
    writeHead(status: number, headers?: Headers) {
      correctParseStatus(headers);
      return writeHead(status, headers);
    },
    addTrailers(trailers: Headers) {
      correctParseStatus(trailers);
      return addTrailers(trailers as http2.OutgoingHttpHeaders);
    },
  });
  return res;
}
