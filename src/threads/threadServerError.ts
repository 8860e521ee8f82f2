import { AgUiConnectionError, AgUiHttpError, AgUiNotEventStreamError, AgUiThreadServerError, SseFrameTooLargeError, type ThreadServerProblem } from "../errors";
import { isRecord } from "../internal/isRecord";

/** A thread server's answer that is not what it should be (not AG-UI events, not a thread's state). */
export class UnreadableThreadError extends Error {
  override readonly name = "UnreadableThreadError";
}

/** The HTTP status an error carries (`AgUiHttpError`, the LangGraph SDK's `HTTPError`), if it has one. */
export function statusOf(error: unknown): number | undefined {
  const status = isRecord(error) || error instanceof Error ? (error as { status?: unknown }).status : undefined;
  return typeof status === "number" ? status : undefined;
}

const NETWORK_FAILURE = /ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|fetch failed|Failed to fetch|NetworkError|Unable to connect/i;

/**
 * What kept a thread server from answering, from the error its client
 * threw: a status (401/403 forbidden, 404 not found, any other failed), a
 * server that did not answer (our connection error, the LangGraph SDK's
 * `ConnectionError`/`TimeoutError` after its retries, fetch's own network
 * failures), or an answer that does not parse.
 */
export function problemOf(error: unknown): ThreadServerProblem {
  if (error instanceof AgUiNotEventStreamError || error instanceof SseFrameTooLargeError || error instanceof UnreadableThreadError || error instanceof SyntaxError) return "unreadable";
  const status = statusOf(error);
  if (status === 401 || status === 403) return "forbidden";
  if (status === 404) return "not-found";
  if (status !== undefined || error instanceof AgUiHttpError) return "failed";
  if (error instanceof AgUiConnectionError) return "unreachable";
  if (error instanceof Error) {
    if (error.name === "ConnectionError" || error.name === "TimeoutError") return "unreachable";
    if (NETWORK_FAILURE.test(`${error.message} ${String((error as { cause?: unknown }).cause ?? "")}`)) return "unreachable";
  }
  return "failed";
}

/** `error` as the thread server's error of `operation` on `threadId` (one already is, as it is). */
export function threadServerError(operation: AgUiThreadServerError["operation"], threadId: string | undefined, error: unknown): AgUiThreadServerError {
  if (error instanceof AgUiThreadServerError) return error;
  return new AgUiThreadServerError(operation, threadId, problemOf(error), statusOf(error), { cause: error });
}
