import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import { Observable } from "rxjs";
import { AgUiConnectionError, AgUiHttpError, AgUiNotEventStreamError, SseFrameTooLargeError } from "../errors";
import { createEventStreamParser, readEventStream } from "../internal/eventStream";
import { readUpTo } from "../internal/readUpTo";
import { warnUnreadableFrame } from "../internal/warnings";
import type { ObservableRunAgent } from "./runAgent";

export interface SseRunnerOptions {
  /** The AG-UI endpoint; each run POSTs its `RunAgentInput` here. */
  url: string | URL;
  /** Extra request headers, or a function (may be async) that makes them for each run, e.g. to refresh a token. */
  headers?: Record<string, string> | ((input: RunAgentInput) => Record<string, string> | Promise<Record<string, string>>);
  /** Your own `fetch` (a proxy, a test double, a polyfill). Default: the global one. */
  fetch?: typeof fetch;
  /**
   * Called with a `data:` payload that is not a JSON object; the event is
   * skipped and the stream goes on. Default: `console.warn`.
   */
  onParseError?: (raw: string, error: unknown) => void;
  /** Largest size of one event, in bytes, before the run fails with `SseFrameTooLargeError`. Default 16 MiB. */
  maxFrameBytes?: number;
}

const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** How much of an error answer's body an error keeps (and so how much is read of it). */
const ERROR_BODY_PREVIEW_BYTES = 4096;

/**
 * A `RunAgent` that POSTs the run input to an AG-UI endpoint and streams back
 * its server-sent events (WHATWG framing: LF, CRLF and CR line ends,
 * comments and keep-alives, frames split anywhere, a size bound per event).
 * The request starts on subscription; unsubscribing, or aborting `signal`,
 * aborts it and cancels the body.
 */
export function createSseRunner(options: SseRunnerOptions): ObservableRunAgent {
  const {
    url,
    headers,
    fetch: fetchImpl = globalThis.fetch,
    onParseError = warnUnreadableFrame,
    maxFrameBytes = DEFAULT_MAX_FRAME_BYTES,
  } = options;
  // NaN or 0 would switch the bound off (every comparison false) or refuse every event.
  if (typeof maxFrameBytes !== "number" || !(maxFrameBytes > 0)) throw new TypeError("createSseRunner: maxFrameBytes must be a positive number of bytes, or Infinity");

  return (input, { signal }) =>
    new Observable<BaseEvent>((subscriber) => {
      const controller = new AbortController();
      const abort = () => controller.abort(signal.reason);
      if (signal.aborted) abort();
      else signal.addEventListener("abort", abort, { once: true });
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

      const stream = async () => {
        const extraHeaders = typeof headers === "function" ? await headers(input) : headers;
        let response: Response;
        try {
          response = await fetchImpl(url, {
            method: "POST",
            headers: { "content-type": "application/json", accept: "text/event-stream", ...extraHeaders },
            body: JSON.stringify(input),
            signal: controller.signal,
          });
        } catch (error) {
          throw controller.signal.aborted ? error : new AgUiConnectionError(`Could not reach the agent at ${url}`, { cause: error });
        }
        // The body of an answer that is not the stream is read only as far as the error keeps of it.
        const preview = () => readUpTo(response, ERROR_BODY_PREVIEW_BYTES).then(({ text }) => text, () => "");
        if (!response.ok) throw new AgUiHttpError(response.status, response.statusText, await preview());
        const contentType = response.headers.get("content-type");
        // Without a content type we read on; with another one, it is not the agent talking (a proxy's page, a gateway's JSON).
        if (contentType !== null && !/^\s*text\/event-stream\s*(;|$)/i.test(contentType)) {
          throw new AgUiNotEventStreamError(response.status, contentType, await preview());
        }
        if (!response.body) throw new AgUiConnectionError(`The agent at ${url} answered without a body`);

        const parser = createEventStreamParser({
          maxEventSize: maxFrameBytes,
          tooLarge: (limit) => new SseFrameTooLargeError(limit),
          onFrame: ({ data }) => {
            // AG-UI events always carry data; a frame without it (an id or event name alone) has nothing to deliver.
            if (data === undefined || subscriber.closed) return;
            let event: unknown;
            try {
              event = JSON.parse(data);
            } catch (error) {
              return onParseError(data, error);
            }
            if (typeof event !== "object" || event === null || typeof (event as BaseEvent).type !== "string") {
              return onParseError(data, new TypeError("An AG-UI event must be a JSON object with a string `type`"));
            }
            subscriber.next(event as BaseEvent);
          },
        });
        reader = response.body.getReader();
        const broken = (error: unknown) => (controller.signal.aborted ? error : new AgUiConnectionError(`The connection to ${url} broke mid-stream`, { cause: error }));
        if (await readEventStream(reader, parser, () => subscriber.closed, broken)) subscriber.complete();
      };

      stream().catch((error: unknown) => subscriber.error(error));

      return () => {
        signal.removeEventListener("abort", abort);
        controller.abort();
        reader?.cancel().catch(() => undefined);
      };
    });
}
