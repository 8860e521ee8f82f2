import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import { defer, from, Observable, type ObservableInput } from "rxjs";
import { AgUiConnectionError, AgUiHttpError } from "../errors";
import { isRecord } from "../internal/isRecord";
import { createSseRunner } from "../runners/createSseRunner";
import { UnreadableThreadError } from "./threadServerError";

/**
 * An AG-UI `connect`: the thread's recorded events replayed, then the run
 * still going on it live, if there is one (CopilotKit runtime v2's
 * `<base>/agent/<agentId>/connect` route; `AbstractAgent.connect`).
 * `stopRun`, when the server has a way to stop a thread's run.
 */
export interface ThreadConnect {
  (input: RunAgentInput): ObservableInput<BaseEvent>;
  /** Stops the thread's run `runId` on the server (CopilotKit: `POST <base>/agent/<agentId>/stop/<threadId>`). */
  stopRun?: (threadId: string, runId: string) => Promise<void>;
}

/** The input a connect is opened with: the thread, a fresh run id, nothing else. */
export function emptyInput(threadId: string, runId: string): RunAgentInput {
  return { threadId, runId, messages: [], state: {}, tools: [], context: [], forwardedProps: {} };
}

/** What of `@ag-ui/client`'s `AbstractAgent` this file uses (`connect` is protected there). */
interface ConnectingAgent {
  connect?: unknown;
  connectAgent?: unknown;
}

/**
 * Whether `agent` implements AG-UI's `connect`, decided without a call: it
 * has a `connect`, and it is not the one of `@ag-ui/client`'s
 * `AbstractAgent`, the base class every agent of `@ag-ui/client` extends (in
 * 1.0, the deepest class of its prototype chain that defines both `connect`
 * and `connectAgent`; its `connect` throws `AGUIConnectNotImplementedError`).
 * An object outside that class tree with a `connect` of its own implements
 * it. `HttpAgent` and `@ag-ui/langgraph`'s agent do not; CopilotKit's
 * `ProxiedCopilotRuntimeAgent` does.
 */
export function implementsConnect(agent: unknown): boolean {
  if (!isRecord(agent) && typeof agent !== "function") return false;
  const own = (agent as ConnectingAgent).connect;
  if (typeof own !== "function") return false;
  let base: ConnectingAgent | undefined;
  for (let proto: unknown = Object.getPrototypeOf(agent); proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    if (Object.prototype.hasOwnProperty.call(proto, "connect") && Object.prototype.hasOwnProperty.call(proto, "connectAgent")) base = proto as ConnectingAgent;
  }
  return own !== base?.connect;
}

/**
 * The `connect` of an `@ag-ui/client` agent that implements it (see
 * `implementsConnect`; CopilotKit's `ProxiedCopilotRuntimeAgent`): its
 * protected `connect(input)`, called as `connectAgent` calls it, without
 * touching the agent's messages or state. Throws a `TypeError` for an agent
 * without one.
 */
export function agentConnect(agent: object): ThreadConnect {
  if (!implementsConnect(agent)) throw new TypeError("agentConnect: this agent does not implement AG-UI's connect (its connect is AbstractAgent's, which throws AGUIConnectNotImplementedError)");
  const connect = (agent as { connect: (input: RunAgentInput) => ObservableInput<BaseEvent> }).connect;
  return (input) => defer(() => from(connect.call(agent, input)));
}

export interface HttpConnectOptions {
  /** The connect route: CopilotKit runtime v2's `<basePath>/agent/<agentId>/connect`. */
  url: string | URL;
  /** Extra request headers, or a function (may be async) that makes them for each request. */
  headers?: Record<string, string> | ((input: RunAgentInput) => Record<string, string> | Promise<Record<string, string>>);
  /** Your own `fetch`. Default: the global one. */
  fetch?: typeof fetch;
}

/**
 * CopilotKit runtime v2's connect route over HTTP: POSTs the `RunAgentInput`
 * to `url` (`<basePath>/agent/<agentId>/connect`) and reads the server-sent
 * events as `createSseRunner` reads a run's (an event that does not parse
 * fails the stream). Its `stopRun` POSTs `{ runId }` to the runtime's stop
 * route, `<basePath>/agent/<agentId>/stop/<threadId>`, when `url` ends in
 * `/connect`.
 */
export function httpConnect(options: HttpConnectOptions): ThreadConnect {
  const { url, headers, fetch: fetchImpl } = options;
  const connect: ThreadConnect = (input) =>
    new Observable<BaseEvent>((subscriber) => {
      const controller = new AbortController();
      const run = createSseRunner({
        url,
        ...(headers !== undefined && { headers }),
        ...(fetchImpl !== undefined && { fetch: fetchImpl }),
        onParseError: (raw, error) => subscriber.error(new UnreadableThreadError(`An event of the connect stream does not parse: ${raw.slice(0, 80)}`, { cause: error })),
      });
      const inner = run(input, { signal: controller.signal }).subscribe(subscriber);
      return () => {
        inner.unsubscribe();
        controller.abort();
      };
    });
  const href = String(url);
  if (/\/connect\/?$/.test(href)) {
    const fetching = fetchImpl ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
    connect.stopRun = async (threadId, runId) => {
      const stopUrl = href.replace(/\/connect\/?$/, `/stop/${encodeURIComponent(threadId)}`);
      const extra = typeof headers === "function" ? await headers(emptyInput(threadId, runId)) : headers;
      let response: Response;
      try {
        response = await fetching(stopUrl, { method: "POST", headers: { "content-type": "application/json", ...extra }, body: JSON.stringify({ runId }) });
      } catch (error) {
        throw new AgUiConnectionError(`Could not reach the agent at ${stopUrl}`, { cause: error });
      }
      if (!response.ok) throw new AgUiHttpError(response.status, response.statusText, await response.text().then((text) => text.slice(0, 4096), () => ""));
      await response.body?.cancel().catch(() => undefined);
    };
  }
  return connect;
}
