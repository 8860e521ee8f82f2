/** The problem kinds this server answers with, and their statuses. `model-*` kinds are open-ended (502). */
const KINDS = {
  "bad-request": [400, "Bad request"],
  "idempotency-key-missing": [400, "Idempotency-Key missing"],
  "tool-usage": [400, "Tool usage error"],
  unauthorized: [401, "Unauthorized"],
  forbidden: [403, "Forbidden"],
  "run-forbidden": [403, "Run belongs to another principal"],
  "approval-denied": [403, "Approval denied"],
  "guardrail-blocked": [403, "Blocked by a guardrail"],
  "not-found": [404, "Not found"],
  "tool-not-found": [404, "Tool not found"],
  "approval-not-found": [404, "Approval not found"],
  "run-not-found": [404, "Run not found"],
  "idempotency-key-in-flight": [409, "Request with this Idempotency-Key in flight"],
  "run-limit-exceeded": [409, "Run limit exceeded"],
  "approval-already-decided": [409, "Approval already decided"],
  "payload-too-large": [413, "Payload too large"],
  "tool-args-invalid": [422, "Invalid tool arguments"],
  "idempotency-key-reused": [422, "Idempotency-Key reused"],
  "budget-exceeded": [429, "Budget exceeded"],
  internal: [500, "Internal server error"],
  "tool-failed": [502, "Tool failed"],
  "tool-error": [502, "Tool returned an error"],
  unavailable: [503, "Service unavailable"],
  "tool-timeout": [504, "Tool timed out"],
} as const satisfies Record<string, readonly [number, string]>;

export type ProblemKind = keyof typeof KINDS | `model-${string}`;

const PROBLEM_TYPE_PREFIX = "urn:tool-server:problem:";

/** A reply to send: JSON body, status and extra headers. Handlers return these; the server writes (and may store) them. */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  contentType?: string;
}

/** Thrown by handlers to answer with an RFC 9457 problem. */
export class ProblemError extends Error {
  constructor(
    readonly kind: ProblemKind,
    readonly detail: string,
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
    readonly statusOverride?: number,
  ) {
    super(detail);
  }

  get status(): number {
    return this.statusOverride ?? statusOf(this.kind);
  }

  toReply(): Reply {
    const title = isKnown(this.kind) ? KINDS[this.kind][1] : this.kind.startsWith("model-") ? "Model error" : "Error";
    return {
      status: this.status,
      contentType: "application/problem+json",
      headers: this.headers,
      body: { type: PROBLEM_TYPE_PREFIX + this.kind, title, status: this.status, detail: this.detail, kind: this.kind, ...this.extensions },
    };
  }
}

const isKnown = (kind: string): kind is keyof typeof KINDS => Object.hasOwn(KINDS, kind);

function statusOf(kind: ProblemKind): number {
  return isKnown(kind) ? KINDS[kind][0] : 502;
}

/** Whether an idempotency-keyed request's reply is kept for replay: only outcomes a retry must not change. */
export function isStorable(reply: Reply): boolean {
  // Nothing happened for these, so a retry may rightly get another answer.
  if ([401, 413, 429, 500, 503].includes(reply.status)) return false;
  const kind = (reply.body as { kind?: unknown } | null)?.kind;
  return kind !== "forbidden" && kind !== "run-forbidden";
}
