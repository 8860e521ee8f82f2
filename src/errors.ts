import { clip, firstLine } from "./internal/clip";
import { SerializableError } from "./internal/serializableError";

/**
 * Every error this library raises extends CarbonAgUiError. Each serializes to
 * JSON with its name, message and details, because Carbon AI Chat reports a
 * rejected customSendMessage with JSON.stringify, where a plain Error is "{}".
 */
export class CarbonAgUiError extends SerializableError {
  override readonly name: string = "CarbonAgUiError";
}

/** The agent ended its run with RUN_ERROR, or the run itself failed with an error of its own (an in-process agent that throws). */
export class AgUiRunError extends CarbonAgUiError {
  override readonly name = "AgUiRunError";
  constructor(
    message: string,
    /** The `code` of the RUN_ERROR event, when it had one. */
    readonly code?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** How much of another's error message one of ours keeps. */
const WRAPPED_MESSAGE_LENGTH = 500;

/**
 * `error` as one of ours: itself when it is, else `wrap(message)` with the
 * error as `cause`, keeping the first line of its message (a plain `Error`
 * serializes as "{}"; a library's message may go on with what it was given).
 */
export function asCarbonAgUiError(error: unknown, wrap: (message: string, options: { cause: unknown }) => CarbonAgUiError = (message, options) => new CarbonAgUiError(message, options)): CarbonAgUiError {
  if (error instanceof CarbonAgUiError) return error;
  const message = error instanceof Error ? error.message || error.name : typeof error === "string" ? error : safeJson(error);
  return wrap(firstLine(message, WRAPPED_MESSAGE_LENGTH), { cause: error });
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The event stream broke a rule of the AG-UI protocol (for example content for a message that never started). */
export class AgUiProtocolError extends CarbonAgUiError {
  override readonly name = "AgUiProtocolError";
  constructor(
    message: string,
    /** The type of the event that broke the rule; absent when the stream ended too early. */
    readonly eventType?: string,
  ) {
    super(message);
  }
}

/** The agent endpoint answered with a status other than 2xx. */
export class AgUiHttpError extends CarbonAgUiError {
  override readonly name = "AgUiHttpError";
  constructor(
    readonly status: number,
    readonly statusText: string,
    /** The start of the response body (at most 4 KiB), to help tell what went wrong. */
    readonly body: string,
  ) {
    super(`The agent endpoint answered ${status}${statusText ? ` ${statusText}` : ""}${body ? `: ${body}` : ""}`);
  }
}

/** The agent endpoint could not be reached, or the connection broke while the stream was being read. */
export class AgUiConnectionError extends CarbonAgUiError {
  override readonly name = "AgUiConnectionError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The endpoint answered 2xx with a body that is not an event stream: an auth
 * proxy's sign-in page, a JSON error from a gateway. Read as events it would
 * be a silent empty answer.
 */
export class AgUiNotEventStreamError extends CarbonAgUiError {
  override readonly name = "AgUiNotEventStreamError";
  constructor(
    readonly status: number,
    readonly contentType: string,
    /** The start of the response body (at most 4 KiB). */
    readonly body: string,
  ) {
    super(`The agent endpoint answered ${status} with ${contentType}, not text/event-stream${body ? `: ${body}` : ""}`);
  }
}

/** The agent's stream ended before any event: the run never started (CopilotKit's runtime answers so while the thread is still busy). */
export class AgUiEmptyRunError extends CarbonAgUiError {
  override readonly name = "AgUiEmptyRunError";
  constructor() {
    super("The agent ended the run without answering");
  }
}

/** One server-sent event grew past the configured size limit before it ended. */
export class SseFrameTooLargeError extends CarbonAgUiError {
  override readonly name = "SseFrameTooLargeError";
  constructor(readonly limitBytes: number) {
    super(`A server-sent event exceeded ${limitBytes} bytes without ending`);
  }
}

const MAX_SHOWN_PROBLEMS = 10;

/** An event that does not match its AG-UI 1.0 schema; reported to `onInvalidEvent` and skipped. */
export class AgUiInvalidEventError extends CarbonAgUiError {
  override readonly name = "AgUiInvalidEventError";
  constructor(
    /** The event's `type`, when it had a string one. */
    readonly eventType: string | undefined,
    /** What is wrong, one entry per problem: "messageId: Invalid input: expected string, received number". */
    readonly problems: string[],
  ) {
    // A snapshot of many broken messages has a problem per message: the message names the first few.
    const shown = problems.length > MAX_SHOWN_PROBLEMS ? [...problems.slice(0, MAX_SHOWN_PROBLEMS - 1), `and ${(problems.length - MAX_SHOWN_PROBLEMS + 1).toLocaleString("en-US")} more`] : problems;
    super(`Invalid ${eventType === undefined ? "AG-UI" : clip(eventType, 64)} event: ${shown.map((problem) => clip(problem, 200)).join("; ")}`);
  }
}

/**
 * A JSON Patch (a STATE_DELTA or an ACTIVITY_DELTA) that could not be applied
 * as sent: it failed and was rolled back (nothing changed), some of its
 * operations were not RFC 6902 ones and were skipped, or there was nothing to
 * patch. Given to `onWarning`; never thrown by us.
 */
export class AgUiPatchError extends CarbonAgUiError {
  override readonly name = "AgUiPatchError";
  /** Where in `delta` the operation that failed stands, when one failed. */
  readonly index?: number;
  /** The operation that failed, without its value. */
  readonly operation?: PatchOperationSummary;
  constructor(
    message: string,
    /** What the patch was for: "state", or "activity <messageId>". */
    readonly target: string,
    /** The patch's operations, as the event carried them. */
    readonly delta: readonly unknown[],
    failed?: { index: number; operation: PatchOperationSummary },
  ) {
    super(message);
    if (failed) {
      this.index = failed.index;
      this.operation = failed.operation;
    }
  }
}

/** A JSON Patch operation as a warning names it: what it does and where, not the value it carries. */
export interface PatchOperationSummary {
  op: string;
  path?: string;
  from?: string;
}

/** A Carbon item (from a `carbon.item`/`carbon.items` CUSTOM event) that Carbon 1.9.1 cannot render; given to `onInvalidItem` and skipped. */
export class AgUiInvalidItemError extends CarbonAgUiError {
  override readonly name = "AgUiInvalidItemError";
  constructor(
    /** What is wrong, one entry per problem: "options: must be an array". */
    readonly problems: string[],
  ) {
    super(`Invalid Carbon item: ${problems.join("; ")}`);
  }
}

/**
 * An A2UI surface (an `a2ui-surface` activity) that cannot be drawn as the
 * agent sent it, or a person's action on one that cannot be sent: over a
 * limit, not valid A2UI, a URL the policy refuses, a surface whose turn has
 * moved on. The message says what and where, never the surface's data.
 */
export class AgUiSurfaceError extends CarbonAgUiError {
  override readonly name = "AgUiSurfaceError";
  constructor(
    message: string,
    /** The activity (its message id) the surface is. */
    readonly activityId: string,
  ) {
    super(message);
  }
}

/**
 * An MCP App (`carbon-agui-rx/mcp-apps`) went wrong or was stopped: no
 * sandbox to draw it in, a request of its refused or failed on the server,
 * an app cut off for flooding the host, a payload over its limit, or one that
 * never initialized. The message says what and where, never the app's data.
 */
export class AgUiMcpAppError extends CarbonAgUiError {
  override readonly name = "AgUiMcpAppError";
  constructor(
    message: string,
    /** The activity (its message id) the app is. */
    readonly activityId: string,
  ) {
    super(message);
  }
}

/** `regenerate` or `switchVersion` could not be done: no answer to ask again, a card waiting, no such version. */
export class AgUiRegenerateError extends CarbonAgUiError {
  override readonly name = "AgUiRegenerateError";
}

/** `editQuestion` or `switchQuestion` could not be done: no such question on the thread's branch, a card waiting, a turn playing, no such version. */
export class AgUiEditError extends CarbonAgUiError {
  override readonly name = "AgUiEditError";
}

/** `respondToInterrupt` could not take the decision: no such interrupt, an ambiguous default, an expired interrupt approved, nowhere to stream. */
export class AgUiInterruptError extends CarbonAgUiError {
  override readonly name = "AgUiInterruptError";
  constructor(
    message: string,
    /** The interrupt concerned, when there is one. */
    readonly interruptId?: string,
  ) {
    super(message);
  }
}

/** The agent kept asking for frontend tools past `maxFrontendToolRounds` follow-up runs in one turn. */
export class AgUiFrontendToolError extends CarbonAgUiError {
  override readonly name = "AgUiFrontendToolError";
}

/**
 * A stored conversation that cannot be restored: not a snapshot, a version
 * this library does not read, or a field that does not fit. Nothing of it is
 * used: the chat starts empty (and says so through `onError`).
 */
export class AgUiSnapshotError extends CarbonAgUiError {
  override readonly name = "AgUiSnapshotError";
  constructor(
    message: string,
    /** Where it does not fit, one entry per problem (at most 10): "messages.3.role: Invalid input". Never the values. */
    readonly problems: readonly string[] = [],
  ) {
    super(problems.length === 0 ? message : `${message}: ${problems.join("; ")}`);
  }
}

/** A conversation store failed (a full quota, storage turned off, a server that did not answer); reported, the chat goes on. */
export class AgUiStoreError extends CarbonAgUiError {
  override readonly name = "AgUiStoreError";
  constructor(
    /** What failed. */
    readonly operation: "load" | "save" | "remove" | "list",
    /** The thread concerned, when there is one. */
    readonly threadId: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(`The conversation store failed to ${operation}${threadId === undefined ? "" : ` thread '${threadId}'`}: ${reasonOf(options?.cause)}`, options);
  }
}

/** What a store's failure says: its message, after its name when that tells more (a DOMException's "QuotaExceededError"). */
function reasonOf(cause: unknown): string {
  if (typeof cause === "string") return cause;
  const { name, message } = (cause ?? {}) as { name?: unknown; message?: unknown };
  if (typeof message !== "string") return "unknown error";
  return typeof name !== "string" || name === "Error" || message.startsWith(name) ? message : `${name}: ${message}`;
}

/**
 * Another tab (or window) of the origin saved the thread this chat shows:
 * the last save wins, so this chat's next save replaces what that tab saved.
 * Given to `onWarning`; reload to see the other tab's conversation.
 */
export class AgUiThreadSavedElsewhereError extends CarbonAgUiError {
  override readonly name = "AgUiThreadSavedElsewhereError";
  constructor(readonly threadId: string) {
    super(`Thread '${threadId}' was saved in another tab; the next save here replaces it (reload to see that tab's conversation)`);
  }
}

/** Why the agent's server could not give a thread. */
export type ThreadServerProblem = "unreachable" | "not-found" | "forbidden" | "unreadable" | "failed";

/**
 * The agent's server could not give, list, delete or rejoin a thread: it did
 * not answer, it has no such thread, this person may not read it (401/403),
 * or what it sent does not parse. Nothing local is deleted; the chat says why
 * in one line.
 */
export class AgUiThreadServerError extends CarbonAgUiError {
  override readonly name = "AgUiThreadServerError";
  constructor(
    /** `branch`: fork the thread for a regenerate, or move it to another version's branch. */
    readonly operation: "load" | "list" | "remove" | "rejoin" | "branch",
    readonly threadId: string | undefined,
    readonly problem: ThreadServerProblem,
    /** The HTTP status, when the server answered with one. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    const what = threadId === undefined ? "the threads" : `thread '${threadId}'`;
    const why = { unreachable: "it did not answer", "not-found": "it has no such thread", forbidden: "this person may not read it", unreadable: "what it sent does not parse", failed: "it failed" }[problem];
    super(`The agent's server could not ${operation} ${what}: ${why}${status === undefined ? "" : ` (HTTP ${status})`}${options?.cause === undefined ? "" : `: ${reasonOf(options.cause)}`}`, options);
  }
}
