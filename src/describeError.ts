import { AgUiConnectionError, AgUiEmptyRunError, AgUiFrontendToolError, AgUiHttpError, AgUiInterruptError, AgUiNotEventStreamError, AgUiProtocolError, AgUiRunError, SseFrameTooLargeError } from "./errors";
import { isRecord } from "./internal/isRecord";
import { sentence } from "./internal/sentence";

/** Reason phrases for the statuses an agent endpoint is likely to answer; `statusText` is empty over HTTP/2. */
const REASON_PHRASES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  408: "Request Timeout",
  413: "Content Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** The longest reason shown; an agent's message past it is cut with an ellipsis. */
const MAX_REASON_CHARS = 300;

/**
 * What a person is told when a turn fails, in plain words: the agent's own
 * RUN_ERROR message, or what happened on the way to it ("The agent could not
 * be reached.", "The agent answered 503 Service Unavailable."). It never shows
 * a stack, a URL's credentials or a bearer token, and cuts long messages.
 * The adapter's `describeError` option replaces it (to word errors your way,
 * or to hide internals: return a fixed sentence).
 */
export function describeError(error: unknown): string {
  if (error instanceof AgUiRunError) return sentence(scrub(error.message) || "The agent ran into a problem.");
  if (error instanceof AgUiHttpError || (isRecord(error) && typeof error.status === "number" && error.status >= 400)) {
    const status = (error as { status: number }).status;
    const statusText = (error as { statusText?: unknown }).statusText;
    const phrase = typeof statusText === "string" && statusText !== "" ? statusText : (REASON_PHRASES[status] ?? "");
    return `The agent answered ${status}${phrase ? ` ${scrub(phrase)}` : ""}.`;
  }
  if (error instanceof AgUiConnectionError) {
    return /mid-stream|broke/.test(error.message) ? "The connection to the agent broke off." : "The agent could not be reached.";
  }
  if (error instanceof AgUiEmptyRunError) return "The agent ended the run without answering.";
  if (error instanceof AgUiNotEventStreamError) {
    const type = scrub(error.contentType.split(";")[0]!.trim());
    return `The agent's address answered with ${type || "something"} instead of an event stream: a sign-in page or a proxy may be in the way.`;
  }
  if (error instanceof SseFrameTooLargeError) return "The agent sent a message too large to show.";
  if (error instanceof AgUiProtocolError) {
    return error.eventType === undefined ? "The agent's answer broke off before it was complete." : "The agent sent an answer this chat could not follow.";
  }
  if (error instanceof AgUiFrontendToolError || error instanceof AgUiInterruptError) return sentence(scrub(error.message));
  return "Something went wrong while talking to the agent.";
}

/** Removes what must never reach the page: stack lines, credentials in URLs, bearer tokens; and cuts it to length. */
function scrub(text: string): string {
  // A message that is an error's toString ("Error: …", as Mastra sends RUN_ERROR) reads better without the class name.
  const firstLines = text.split(/\n\s+at /)[0]!.replace(/^[A-Za-z]*Error:\s*/, "");
  const clean = firstLines
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, "$1")
    .replace(/\b(bearer|basic|token)(\s+|=|:\s*)[^\s,;)\]}"']+/gi, "$1$2[hidden]")
    .trim();
  return clean.length > MAX_REASON_CHARS ? `${clean.slice(0, MAX_REASON_CHARS - 1).trimEnd()}…` : clean;
}

/** The words for a failed turn an option asks for: its own function, none for `false`, else `describeError`. */
export function describerOf(option: ((error: unknown) => string | undefined) | false | undefined): ((error: unknown) => string | undefined) | undefined {
  return option === false ? undefined : (option ?? describeError);
}
