import { SerializableError } from "../internal/serializableError";

/**
 * What a tool-server call can fail with. A server that answered raises a
 * `ToolServerError` subclass chosen by the problem's `kind`, then by status;
 * no answer is a `ToolTransportError`; an answer that breaks the protocol is a
 * `ToolProtocolError`. None of them ever carries the bearer token.
 */

/** An RFC 9457 problem body. A body that was not one becomes `{ type: "about:blank", status, title }`. */
export interface Problem {
  type: string;
  status?: number;
  title?: string;
  detail?: string;
  instance?: string;
  /** The tool server's machine-readable reason, such as `tool-args-invalid` or `model-unavailable`. */
  kind?: string;
  [extension: string]: unknown;
}

/** One reason why arguments were refused, without the value that was refused. */
export interface ToolArgumentProblem {
  /** Where in the arguments, as a JSON pointer (`/a`) or the server's location path. */
  path: string;
  message: string;
  /** The validator's error type, when the server names one. */
  type?: string;
}

/** The root of every error the tool client raises; each serializes to JSON with its fields. */
export class ToolClientError extends SerializableError {
  override readonly name: string = "ToolClientError";
}

/** The server answered with an error status. */
export class ToolServerError extends ToolClientError {
  override readonly name: string = "ToolServerError";
  readonly status: number;
  readonly kind: string | undefined;
  /** How long the server asked to wait (`Retry-After`), in milliseconds; undefined when it did not say. */
  readonly retryAfterMs: number | undefined;

  constructor(
    /** The RFC 9457 body, with argument values removed from `errors`. */
    readonly problem: Problem,
    status: number,
    retryAfterMs?: number,
  ) {
    super(problem.detail ?? problem.title ?? `The tool server answered ${status}`);
    this.status = status;
    this.kind = problem.kind;
    this.retryAfterMs = retryAfterMs;
  }
}

/** 400. */
export class BadRequestError extends ToolServerError {
  override readonly name: string = "BadRequestError";
}
/** 400 `tool-usage`: the tool refused how it was asked. */
export class ToolUsageError extends BadRequestError {
  override readonly name: string = "ToolUsageError";
}
/** 401: no token, or one the server does not accept. */
export class UnauthorizedError extends ToolServerError {
  override readonly name: string = "UnauthorizedError";
}
/** 403: the principal may not do this (for example, another principal's run). */
export class ForbiddenError extends ToolServerError {
  override readonly name: string = "ForbiddenError";
}
/** 403 `approval-denied`: the tool's policy refuses the call outright. */
export class ApprovalDeniedError extends ForbiddenError {
  override readonly name: string = "ApprovalDeniedError";
}
/** 403 `guardrail-blocked`. */
export class GuardrailBlockedError extends ForbiddenError {
  override readonly name: string = "GuardrailBlockedError";
}
/** 404. */
export class NotFoundError extends ToolServerError {
  override readonly name: string = "NotFoundError";
}
/** 404 `tool-not-found`. */
export class ToolNotFoundError extends NotFoundError {
  override readonly name: string = "ToolNotFoundError";
}
/** 404 `approval-not-found`. */
export class ApprovalNotFoundError extends NotFoundError {
  override readonly name: string = "ApprovalNotFoundError";
}
/** 409 (for example `idempotency-key-in-flight`: the same key is still being answered). */
export class ConflictError extends ToolServerError {
  override readonly name: string = "ConflictError";
}
/** 409 `run-limit-exceeded`. */
export class RunLimitExceededError extends ConflictError {
  override readonly name: string = "RunLimitExceededError";
}
/** 409 `approval-already-decided`. */
export class ApprovalAlreadyDecidedError extends ConflictError {
  override readonly name: string = "ApprovalAlreadyDecidedError";
}
/** 422 (for example `idempotency-key-reused`: the key was used with another body). */
export class UnprocessableContentError extends ToolServerError {
  override readonly name: string = "UnprocessableContentError";
}
/** 422 `tool-args-invalid`. */
export class ToolArgsInvalidError extends UnprocessableContentError {
  override readonly name: string = "ToolArgsInvalidError";
  /** What was wrong; never the refused values. */
  readonly errors: ToolArgumentProblem[];

  constructor(problem: Problem, status: number, retryAfterMs?: number) {
    super(problem, status, retryAfterMs);
    this.errors = (problem.errors as ToolArgumentProblem[] | undefined) ?? [];
  }
}
/** 429 (`retryAfterMs` says when to try again). */
export class TooManyRequestsError extends ToolServerError {
  override readonly name: string = "TooManyRequestsError";
}
/** 429 `budget-exceeded`: the run spent its budget. */
export class BudgetExceededError extends TooManyRequestsError {
  override readonly name: string = "BudgetExceededError";
}
/** 500. */
export class InternalServerError extends ToolServerError {
  override readonly name: string = "InternalServerError";
}
/** 502: the tool, or something behind the server, failed. */
export class ToolError extends ToolServerError {
  override readonly name: string = "ToolError";
}
/** 502 `tool-failed`: the tool raised. */
export class ToolFailedError extends ToolError {
  override readonly name: string = "ToolFailedError";
}
/** 502 `model-*`: a model the tool called failed. */
export class ModelError extends ToolError {
  override readonly name: string = "ModelError";
}
/** 503. */
export class ServiceUnavailableError extends ToolServerError {
  override readonly name: string = "ServiceUnavailableError";
}
/** 504: the tool ran out of time. */
export class ToolTimeoutError extends ToolServerError {
  override readonly name: string = "ToolTimeoutError";
}

/** No answer: the network failed or the attempt timed out. */
export class ToolTransportError extends ToolClientError {
  override readonly name: string = "ToolTransportError";
  constructor(
    message: string,
    readonly reason: "network" | "timeout",
    /** False only when the connection was never made, so the server cannot have seen the request. */
    readonly reachedServer: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The server answered something the protocol does not allow (not JSON, a wrong shape, too large). */
export class ToolProtocolError extends ToolClientError {
  override readonly name: string = "ToolProtocolError";
}

/** The run's event stream broke the protocol: a line or event over `maxEventSize`, or data that is not JSON. */
export class EventStreamError extends ToolProtocolError {
  override readonly name: string = "EventStreamError";
  constructor(
    message: string,
    /** The id of the offending event, when it had one. */
    readonly eventId?: string,
  ) {
    super(message);
  }
}

type ServerErrorClass = new (problem: Problem, status: number, retryAfterMs?: number) => ToolServerError;

const BY_KIND: Record<string, ServerErrorClass> = {
  "tool-usage": ToolUsageError,
  "approval-denied": ApprovalDeniedError,
  "guardrail-blocked": GuardrailBlockedError,
  "tool-not-found": ToolNotFoundError,
  "approval-not-found": ApprovalNotFoundError,
  "run-limit-exceeded": RunLimitExceededError,
  "approval-already-decided": ApprovalAlreadyDecidedError,
  "tool-args-invalid": ToolArgsInvalidError,
  "budget-exceeded": BudgetExceededError,
  "tool-failed": ToolFailedError,
  "tool-error": ToolError,
  "tool-timeout": ToolTimeoutError,
};

const BY_STATUS: Record<number, ServerErrorClass> = {
  400: BadRequestError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableContentError,
  429: TooManyRequestsError,
  500: InternalServerError,
  502: ToolError,
  503: ServiceUnavailableError,
  504: ToolTimeoutError,
};

/**
 * The error for a problem answer: by `kind` when the kind belongs to that
 * status (a `tool-failed` kind on a 404 is still a 404), else by status.
 */
export function errorFromProblem(problem: Problem, status: number, retryAfterMs?: number): ToolServerError {
  const byStatus = BY_STATUS[status];
  const kind = problem.kind ?? "";
  const byKind = kind.startsWith("model-") ? ModelError : BY_KIND[kind];
  const ErrorClass = byKind && byStatus && (byKind === byStatus || byKind.prototype instanceof byStatus) ? byKind : (byStatus ?? ToolServerError);
  return new ErrorClass(problem, status, retryAfterMs);
}
