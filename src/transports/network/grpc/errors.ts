/**
 * Errors on the gRPC side: a status code plus one `cua.env.v1.ErrorInfo` in the
 * `google.rpc.Status` details (connect-node writes them to `grpc-status-details-bin`).
 * Driver refusal codes are mapped here once (S4).
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { DriverError, type DriverErrorCode, type ErrorEnvelope } from "../../../ports/errors.ts";
import { ErrorInfoSchema, ErrorReason } from "./gen/cua/env/v1/common_pb.ts";

/** Extra ErrorInfo fields. */
export interface RpcErrorExtra {
  feature?: string;
  metadata?: Record<string, string>;
}

/** Builds a ConnectError carrying an ErrorInfo detail. */
export function rpcError(
  code: Code,
  reason: ErrorReason,
  message: string,
  extra: RpcErrorExtra = {},
): ConnectError {
  const info = create(ErrorInfoSchema, {
    reason,
    message,
    feature: extra.feature ?? "",
    metadata: extra.metadata ?? {},
  });
  return new ConnectError(message, code, undefined, [{ desc: ErrorInfoSchema, value: info }]);
}

/** A feature this server does not implement (UNIMPLEMENTED + FEATURE_UNSUPPORTED). */
export function unsupported(feature: string, message: string): ConnectError {
  return rpcError(Code.Unimplemented, ErrorReason.FEATURE_UNSUPPORTED, message, { feature });
}

/** A malformed request (INVALID_ARGUMENT). */
export function invalid(message: string, field?: string): ConnectError {
  return rpcError(
    Code.InvalidArgument,
    ErrorReason.UNSPECIFIED,
    message,
    field ? { metadata: { field } } : {},
  );
}

const MAPPING: Partial<Record<DriverErrorCode, [Code, ErrorReason]>> = {
  invalid_arguments: [Code.InvalidArgument, ErrorReason.UNSPECIFIED],
  invalid_action_target: [Code.InvalidArgument, ErrorReason.UNSPECIFIED],
  conflicting_element_target: [Code.InvalidArgument, ErrorReason.UNSPECIFIED],
  invalid_element_token: [Code.InvalidArgument, ErrorReason.UNSPECIFIED],
  invalid_snapshot_id: [Code.InvalidArgument, ErrorReason.UNSPECIFIED],
  snapshot_id_required: [Code.InvalidArgument, ErrorReason.UNSPECIFIED],
  element_index_required: [Code.InvalidArgument, ErrorReason.UNSPECIFIED],
  ambiguous_window_target: [Code.InvalidArgument, ErrorReason.TARGET_UNAVAILABLE],
  file_error: [Code.InvalidArgument, ErrorReason.PATH_NOT_FOUND],
  input_too_large: [Code.InvalidArgument, ErrorReason.UNSPECIFIED],
  unknown_tool: [Code.NotFound, ErrorReason.UNSPECIFIED],
  window_target_not_found: [Code.NotFound, ErrorReason.TARGET_UNAVAILABLE],
  process_not_found: [Code.NotFound, ErrorReason.PROCESS_NOT_FOUND],
  app_not_found: [Code.NotFound, ErrorReason.TARGET_UNAVAILABLE],
  window_stale: [Code.FailedPrecondition, ErrorReason.STALE_HANDLE],
  stale_element_token: [Code.FailedPrecondition, ErrorReason.STALE_SNAPSHOT],
  screenshot_context_missing: [Code.FailedPrecondition, ErrorReason.STALE_SNAPSHOT],
  background_unavailable: [Code.FailedPrecondition, ErrorReason.WOULD_REQUIRE_ACTIVATION],
  foreground_unavailable: [Code.FailedPrecondition, ErrorReason.DELIVERY_FAILED],
  delivery_failed: [Code.FailedPrecondition, ErrorReason.DELIVERY_FAILED],
  button_already_held: [Code.FailedPrecondition, ErrorReason.UNSPECIFIED],
  button_not_held: [Code.FailedPrecondition, ErrorReason.UNSPECIFIED],
  session_ended: [Code.FailedPrecondition, ErrorReason.SESSION_NOT_FOUND],
  session_not_started: [Code.FailedPrecondition, ErrorReason.SESSION_NOT_FOUND],
  session_unavailable: [Code.FailedPrecondition, ErrorReason.SESSION_NOT_FOUND],
  input_busy: [Code.Unavailable, ErrorReason.RATE_LIMITED],
  input_stopped: [Code.FailedPrecondition, ErrorReason.UNSPECIFIED],
  display_unavailable: [Code.Unavailable, ErrorReason.TARGET_UNAVAILABLE],
  accessibility_unavailable: [Code.Unavailable, ErrorReason.TARGET_UNAVAILABLE],
  clipboard_unavailable: [Code.Unavailable, ErrorReason.TARGET_UNAVAILABLE],
  capture_failed: [Code.Unavailable, ErrorReason.TARGET_UNAVAILABLE],
  library_unavailable: [Code.Unavailable, ErrorReason.FEATURE_UNSUPPORTED],
  unsupported_platform: [Code.Unimplemented, ErrorReason.FEATURE_UNSUPPORTED],
  permission_denied: [Code.PermissionDenied, ErrorReason.PERMISSION_DENIED],
  foreign_process_termination_denied: [Code.PermissionDenied, ErrorReason.PERMISSION_DENIED],
  bounded_resource_outside_manifest: [Code.PermissionDenied, ErrorReason.PERMISSION_DENIED],
  authorization_expired: [Code.PermissionDenied, ErrorReason.PERMISSION_DENIED],
  launch_refused: [Code.PermissionDenied, ErrorReason.PERMISSION_DENIED],
  timeout: [Code.DeadlineExceeded, ErrorReason.UNSPECIFIED],
  aborted: [Code.Canceled, ErrorReason.UNSPECIFIED],
  native_call_failed: [Code.Internal, ErrorReason.INTERNAL],
  typed_output_mismatch: [Code.Internal, ErrorReason.INTERNAL],
  internal_error: [Code.Internal, ErrorReason.INTERNAL],
};

/** The status and reason for a driver error code (unknown codes: UNKNOWN). */
export function statusOf(code: string): [Code, ErrorReason] {
  return MAPPING[code as DriverErrorCode] ?? [Code.Unknown, ErrorReason.UNSPECIFIED];
}

/** Turns a tool's error envelope (or a thrown DriverError) into a ConnectError. */
export function fromDriverFailure(reported: ErrorEnvelope | DriverError | undefined): ConnectError {
  const failure = reported ??
    { status: "failed", code: "internal_error", message: "The tool failed without an error envelope" };
  const code = failure.code;
  const message = failure.message;
  const data: Record<string, unknown> = failure instanceof DriverError ? failure.data : failure;
  const metadata: Record<string, string> = { code };
  for (const key of ["hint", "field", "tool", "window_id", "pid"]) {
    const value = data[key];
    if (value !== undefined && value !== null) metadata[key] = String(value);
  }
  const [status, reason] = statusOf(code);
  return rpcError(status, reason, message, { metadata });
}
