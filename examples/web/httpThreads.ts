import type { BaseEvent, Interrupt, Message } from "@ag-ui/core";
import { AgUiConnectionError, AgUiHttpError, AgUiThreadServerError, createSseRunner, type AgentThreads, type RunAgent, type ServerThread, type ThreadServerProblem, type ThreadSummary } from "carbon-agui-rx";
import { defer, finalize, from, Observable, tap } from "rxjs";

/**
 * The demo's own thread API, as examples/frameworks/serveAgent.ts serves it
 * beside its run route (`url`, e.g. `http://127.0.0.1:4000/agent`): an
 * example of "your own `AgentThreads` backed by your server", given to the
 * adapter as its `threads` option. The page never talks to the LangGraph
 * server itself; the demo's node server does, through `langGraphThreads`.
 *
 * - `load`: GET `<url>/threads/<id>` (404: no such thread, undefined); a
 *   thread with `running: true` gets `running`, the run's events from its
 *   start read from GET `<url>/threads/<id>/running` with the library's
 *   `createSseRunner` (a run that ended since: its end), and `stopRunning`,
 *   POST `<url>/threads/<id>/stop`;
 * - `list`: GET `<url>/threads`; `remove`: DELETE `<url>/threads/<id>`;
 * - `branches` (an answer's versions on the server): POST
 *   `<url>/threads/<id>/fork`, GET `<url>/threads/<id>/head`, POST
 *   `<url>/threads/<id>/move` (see examples/frameworks/serveAgent.ts).
 *
 * Failures reject as `AgUiThreadServerError`: 401/403 `forbidden`, 404
 * `not-found` (list, remove), 502/503/504 and no answer at all
 * `unreachable`, an answer that is not JSON `unreadable`, other statuses
 * `failed`. The server's own `{ problem }` wins where it names one (its 502
 * says whether the agent's server was unreachable or failed).
 */
export function httpThreads(options: { url: string; fetch?: typeof fetch }): AgentThreads {
  const base = options.url.replace(/\/$/, "");
  const fetching = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const threadUrl = (threadId: string) => `${base}/threads/${encodeURIComponent(threadId)}`;

  /** A request to the thread API; its failures as `AgUiThreadServerError`s of `operation`. */
  const request = async (operation: AgUiThreadServerError["operation"], threadId: string | undefined, url: string, init: RequestInit = {}): Promise<Response> => {
    let response: Response;
    try {
      response = await fetching(url, init);
    } catch (error) {
      throw new AgUiThreadServerError(operation, threadId, "unreachable", undefined, { cause: error });
    }
    if (response.ok) return response;
    const body = await response.text().catch(() => "");
    let named: unknown;
    try {
      named = (JSON.parse(body) as { problem?: unknown }).problem;
    } catch {
      named = undefined;
    }
    const problem = isProblem(named) ? named : problemOfStatus(response.status);
    throw new AgUiThreadServerError(operation, threadId, problem, response.status, { cause: new Error(body.slice(0, 300) || response.statusText) });
  };

  const json = async <T>(operation: AgUiThreadServerError["operation"], threadId: string | undefined, response: Response): Promise<T> => {
    try {
      return (await response.json()) as T;
    } catch (error) {
      throw new AgUiThreadServerError(operation, threadId, "unreadable", response.status, { cause: error });
    }
  };

  /** The running run's events from its start: createSseRunner, its POST made a GET (the route takes no input). */
  const runningOf = (threadId: string): Observable<BaseEvent> => {
    const read = createSseRunner({ url: `${threadUrl(threadId)}/running`, fetch: (url, init) => fetching(url, { ...init, method: "GET", body: null }) });
    return new Observable<BaseEvent>((subscriber) => {
      const controller = new AbortController();
      const input = { threadId, runId: "rejoin", messages: [], state: {}, tools: [], context: [], forwardedProps: {} };
      const inner = from(read(input, { signal: controller.signal })).subscribe({
        next: (event) => subscriber.next(event),
        error: (error: unknown) => subscriber.error(rejoinError(threadId, error)),
        complete: () => subscriber.complete(),
      });
      return () => {
        inner.unsubscribe();
        controller.abort();
      };
    });
  };

  /** Forks thread `threadId` where `body` says (before a question's answer, or before the question): the branch left. */
  const fork = async (threadId: string, body: { requestId: string; before?: "question" }): Promise<string> => {
    const response = await request("branch", threadId, `${threadUrl(threadId)}/fork`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return branchOf(threadId, await json<{ branch?: unknown }>("branch", threadId, response));
  };

  return {
    async load(threadId) {
      let response: Response;
      try {
        response = await request("load", threadId, threadUrl(threadId));
      } catch (error) {
        if (error instanceof AgUiThreadServerError && error.problem === "not-found") return undefined;
        throw error;
      }
      const thread = await json<{ threadId?: string; messages?: Message[]; state?: unknown; interrupts?: Interrupt[]; running?: boolean }>("load", threadId, response);
      if (!Array.isArray(thread.messages) || !Array.isArray(thread.interrupts)) throw new AgUiThreadServerError("load", threadId, "unreadable", response.status);
      const served: ServerThread = { threadId, messages: thread.messages, state: thread.state ?? {}, interrupts: thread.interrupts };
      if (!thread.running) return served;
      return {
        ...served,
        running: runningOf(threadId),
        stopRunning: async () => {
          const stopped = await request("rejoin", threadId, `${threadUrl(threadId)}/stop`, { method: "POST" });
          await stopped.body?.cancel().catch(() => undefined);
        },
      };
    },
    async list() {
      const response = await request("list", undefined, `${base}/threads`);
      const threads = await json<ThreadSummary[]>("list", undefined, response);
      if (!Array.isArray(threads)) throw new AgUiThreadServerError("list", undefined, "unreadable", response.status);
      return threads;
    },
    async remove(threadId) {
      const response = await request("remove", threadId, threadUrl(threadId), { method: "DELETE" });
      await response.body?.cancel().catch(() => undefined);
    },
    branches: {
      forkBefore: (threadId, requestId) => fork(threadId, { requestId }),
      forkBeforeQuestion: (threadId, requestId) => fork(threadId, { requestId, before: "question" }),
      async head(threadId) {
        return branchOf(threadId, await json<{ branch?: unknown }>("branch", threadId, await request("branch", threadId, `${threadUrl(threadId)}/head`)));
      },
      async moveTo(threadId, branch) {
        const response = await request("branch", threadId, `${threadUrl(threadId)}/move`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ branch }) });
        await response.body?.cancel().catch(() => undefined);
      },
    },
  };
}

/** The branch a fork or head answer names. */
function branchOf(threadId: string, answer: { branch?: unknown }): string {
  if (typeof answer.branch !== "string") throw new AgUiThreadServerError("branch", threadId, "unreadable");
  return answer.branch;
}

/**
 * Makes Carbon's stop button stop a run where it runs, for a server that
 * keeps a run going when its client goes away (CopilotKit's runtime; the
 * LangGraph demo's serveAgent): a run let go of before its RUN_FINISHED or
 * RUN_ERROR POSTs `{ runId }` to `stopUrl(threadId)` (CopilotKit:
 * `<base>/agent/<agentId>/stop/<threadId>`; serveAgent:
 * `<url>/stop/<threadId>`).
 *
 * Only an unsubscription sends it (the stop button, a restart, a switch to
 * another thread: the adapter lets go of the run): a run that failed on its
 * connection is not stopped, and neither is one whose page goes away. A page
 * being unloaded runs no teardown, and in case it still did, nothing is sent
 * once `pagehide` has fired: the run goes on, for the reloaded page to rejoin.
 */
export function stoppingRuns(run: RunAgent, stopUrl: (threadId: string) => string): RunAgent {
  let leaving = false;
  globalThis.addEventListener?.("pagehide", () => (leaving = true));
  globalThis.addEventListener?.("pageshow", () => (leaving = false));
  return (input, options) =>
    defer(() => {
      let over = false;
      return from(run(input, options)).pipe(
        tap({ next: (event) => (over ||= event.type === "RUN_FINISHED" || event.type === "RUN_ERROR"), error: () => (over = true) }),
        finalize(() => {
          if (over || leaving) return;
          const request = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ runId: input.runId }) };
          fetch(stopUrl(input.threadId), request).catch(() => undefined);
        }),
      );
    });
}

function isProblem(value: unknown): value is ThreadServerProblem {
  return value === "unreachable" || value === "not-found" || value === "forbidden" || value === "unreadable" || value === "failed";
}

function problemOfStatus(status: number): ThreadServerProblem {
  if (status === 401 || status === 403) return "forbidden";
  if (status === 404) return "not-found";
  if (status === 502 || status === 503 || status === 504) return "unreachable";
  return "failed";
}

/** The running route's failure (createSseRunner's errors) as the thread server's. */
function rejoinError(threadId: string, error: unknown): AgUiThreadServerError {
  if (error instanceof AgUiThreadServerError) return error;
  if (error instanceof AgUiHttpError) return new AgUiThreadServerError("rejoin", threadId, problemOfStatus(error.status), error.status, { cause: error });
  if (error instanceof AgUiConnectionError) return new AgUiThreadServerError("rejoin", threadId, "unreachable", undefined, { cause: error });
  return new AgUiThreadServerError("rejoin", threadId, "failed", undefined, { cause: error });
}
