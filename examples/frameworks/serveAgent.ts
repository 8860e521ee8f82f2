import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { EventEncoder } from "@ag-ui/encoder";
import type { BaseEvent, RunAgentInput } from "@ag-ui/client";
import { AgUiThreadServerError, fromAgent, logOfServerThread, type AgentThreads, type AgUiAgent, type RunEntry, type ServerThread } from "carbon-agui-rx";
import { from, type Observable, type Subscription } from "rxjs";
import { listen, type RunningServer } from "./copilotkit";

/** A run this server is reading: its client's run id, and the subscription that stops it where the agent runs it. */
interface ActiveRun {
  runId: string;
  subscription: Subscription;
}

/**
 * Serves an AG-UI agent object (`MastraAgent`, `LangGraphAgent`, …) as an
 * AG-UI endpoint over node http on 127.0.0.1: POST a RunAgentInput to
 * `/agent`, read server-sent events encoded by `@ag-ui/encoder`. Runs go
 * through `fromAgent`, so each runs on a clone. An agent that fails without
 * RUN_ERROR gets one. CORS is open for the demo page.
 *
 * Where the agent keeps threads, a client that goes away leaves its run
 * going: this server reads it to its end, dropping its events, so a reload
 * (or another device) can rejoin it from the agent's server; it stops only
 * when asked: POST
 * `/agent/stop/<threadId>` with `{ "runId": … }` (the client's run id, as the
 * page's stop button sends it; see `stoppingRuns` in
 * examples/web/httpThreads.ts) stops that run, and nothing else: a stop for a
 * run this server no longer reads is too late to stop anything. An agent that keeps no threads stops its run
 * when the client goes away, as nothing could rejoin it.
 *
 * Where the agent keeps threads (`fromAgent`'s `run.threads`: a
 * `LangGraphAgent`'s), the demo's own thread API, read by
 * examples/web/httpThreads.ts:
 *
 * - GET `/agent/threads`: the threads, `ThreadSummary[]`, latest first;
 * - GET `/agent/threads/<id>`: the `ServerThread` as JSON (`threadId`,
 *   `messages`, `state`, `interrupts`) and `running: boolean`;
 * - GET `/agent/threads/<id>/running`: the running run's events from its
 *   start, as server-sent events; a run that ended since the page read the
 *   thread (the page asks in a second request), its end: the run that
 *   would have made the thread's last answer, as a restore replays it (204
 *   when the thread has none);
 * - POST `/agent/threads/<id>/stop`: stops the running run;
 * - DELETE `/agent/threads/<id>`: deletes the thread;
 * - where the agent keeps branches (LangGraph's checkpoints), for an
 *   answer's versions: POST `/agent/threads/<id>/fork` with `{ requestId }`
 *   forks the thread before that question's answer (with
 *   `before: "question"`, before the question itself: an edit) and answers
 *   `{ branch }`, the branch it was on; GET `/agent/threads/<id>/head`
 *   answers `{ branch }`; POST `/agent/threads/<id>/move` with
 *   `{ branch }` moves the thread there.
 *
 * Errors are HTTP statuses with `{ problem, message }`: 404 for a thread the
 * agent's server does not hold, 401/403 passed on, 502 when the agent's
 * server did not answer or failed, or sent what does not parse.
 */
export function serveAgent(agent: AgUiAgent, port = 0): Promise<RunningServer> {
  const run = fromAgent(agent);
  const threads = run.threads;
  const encoder = new EventEncoder();
  /** Per thread, the run this server reads (a thread runs one at a time). */
  const active = new Map<string, ActiveRun>();

  const server = createServer(async (request, response) => {
    response.setHeader("access-control-allow-origin", "*");
    if (request.method === "OPTIONS") {
      response.writeHead(204, { "access-control-allow-methods": "GET, POST, DELETE", "access-control-allow-headers": "content-type, accept" });
      return response.end();
    }
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname.replace(/\/$/, "");
    try {
      if (request.method === "POST" && path === "/agent") return runRoute(request, response);
      const stop = /^\/agent\/stop\/([^/]+)$/.exec(path);
      if (request.method === "POST" && stop) {
        const { runId } = JSON.parse((await bodyOf(request)) || "{}") as { runId?: string };
        const threadId = decodeURIComponent(stop[1]!);
        // Only the run named: a stop that comes late, for a run this server no longer reads, must not stop the one going now.
        const going = active.get(threadId);
        if (going && (runId === undefined || going.runId === runId)) stopActive(threadId);
        return answer(response, 204);
      }
      if (threads && path.startsWith("/agent/threads")) return await threadRoute(threads, request, response, path);
      return answer(response, 404, { problem: "not-found", message: `No route ${request.method} ${path}` });
    } catch (error) {
      return failed(response, error);
    }
  });

  function runRoute(request: IncomingMessage, response: ServerResponse) {
    return bodyOf(request).then((body) => {
      const input = JSON.parse(body) as RunAgentInput;
      response.writeHead(200, { "content-type": encoder.getContentType(), "cache-control": "no-cache" });
      let open = true;
      // The client gone: where the agent keeps threads its run goes on (read to its end here, its events dropped) until a
      // stop route stops it, for a reload to rejoin; elsewhere nothing could rejoin it, and it stops: this run, never a
      // later one of the thread that began meanwhile.
      response.on("close", () => {
        open = false;
        if (threads) return;
        forget();
        subscription?.unsubscribe();
      });
      let subscription: Subscription | undefined;
      const write = (event: BaseEvent) => open && response.write(encoder.encode(event as never));
      const forget = () => active.get(input.threadId)?.runId === input.runId && active.delete(input.threadId);
      const ended = () => {
        forget();
        if (open) response.end();
      };
      subscription = run(input, { signal: new AbortController().signal }).subscribe({
        next: write,
        error: (error: unknown) => {
          write({ type: "RUN_ERROR", message: error instanceof Error ? error.message : String(error) } as BaseEvent);
          ended();
        },
        complete: ended,
      });
      if (!subscription.closed) active.set(input.threadId, { runId: input.runId, subscription });
    });
  }

  /** Stops the run this server reads on `threadId`: unsubscribing it stops it where the agent runs it (`fromAgent`). */
  function stopActive(threadId: string): boolean {
    const going = active.get(threadId);
    if (!going) return false;
    active.delete(threadId);
    going.subscription.unsubscribe();
    return true;
  }

  async function threadRoute(threads: AgentThreads, request: IncomingMessage, response: ServerResponse, path: string) {
    if (path === "/agent/threads" && request.method === "GET") return answer(response, 200, (await threads.list?.()) ?? []);
    const match = /^\/agent\/threads\/([^/]+)(\/running|\/stop|\/fork|\/head|\/move)?$/.exec(path);
    if (!match) return answer(response, 404, { problem: "not-found", message: `No route ${request.method} ${path}` });
    const threadId = decodeURIComponent(match[1]!);
    const sub = match[2];
    if (sub === undefined && request.method === "DELETE") {
      stopActive(threadId);
      await threads.remove?.(threadId);
      return answer(response, 204);
    }
    if (sub === "/stop" && request.method === "POST") {
      if (!stopActive(threadId)) await (await threads.load(threadId))?.stopRunning?.();
      return answer(response, 204);
    }
    const { branches } = threads;
    if (branches && sub === "/fork" && request.method === "POST") {
      const { requestId, before } = JSON.parse((await bodyOf(request)) || "{}") as { requestId?: string; before?: string };
      const fork = before === "question" ? branches.forkBeforeQuestion : branches.forkBefore;
      return answer(response, 200, { branch: await fork(threadId, String(requestId)) });
    }
    if (branches && sub === "/move" && request.method === "POST") {
      const { branch } = JSON.parse((await bodyOf(request)) || "{}") as { branch?: string };
      await branches.moveTo(threadId, String(branch));
      return answer(response, 204);
    }
    if (branches && sub === "/head" && request.method === "GET") return answer(response, 200, { branch: await branches.head(threadId) });
    if (request.method !== "GET" || sub === "/fork" || sub === "/move" || sub === "/head") return answer(response, 405, { problem: "failed", message: `${request.method} ${path}` });
    const thread = await threads.load(threadId);
    if (!thread) return answer(response, 404, { problem: "not-found", message: `No thread '${threadId}' on the agent's server` });
    if (sub === undefined) {
      const { running, stopRunning: _stop, ...rest } = thread;
      return answer(response, 200, { ...rest, running: running !== undefined });
    }
    if (thread.running) return stream(response, thread.running);
    const ended = lastRun(thread);
    return ended ? stream(response, from(ended.events)) : answer(response, 204);
  }

  /** The running run's events as server-sent events; the client gone, this lets go of it (the run goes on). */
  function stream(response: ServerResponse, events: Observable<BaseEvent>) {
    response.writeHead(200, { "content-type": encoder.getContentType(), "cache-control": "no-cache" });
    const subscription = events.subscribe({
      next: (event) => response.write(encoder.encode(event as never)),
      error: (error: unknown) => {
        response.write(encoder.encode({ type: "RUN_ERROR", message: error instanceof Error ? error.message : String(error) } as never));
        response.end();
      },
      complete: () => response.end(),
    });
    response.on("close", () => subscription.unsubscribe());
  }

  const listening = listen(server, port, "/agent");
  return listening.then((running) => ({
    url: running.url,
    close: () => {
      // The runs this server still reads are let go of (each stopped where it runs), then the server closes.
      for (const threadId of [...active.keys()]) stopActive(threadId);
      return running.close();
    },
  }));
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of request) body += chunk;
  return body;
}

function answer(response: ServerResponse, status: number, body?: unknown): void {
  if (response.headersSent) return void response.end();
  if (body === undefined) {
    response.writeHead(status);
    return void response.end();
  }
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

/** A thread server's error as its status: its own 401/403/404, 502 for the rest (the agent's server unreachable, failing, unreadable). */
function failed(response: ServerResponse, error: unknown): void {
  if (error instanceof AgUiThreadServerError) {
    const status = error.problem === "not-found" ? 404 : error.problem === "forbidden" ? (error.status === 401 ? 401 : 403) : 502;
    return answer(response, status, { problem: error.problem, message: error.message });
  }
  if (error instanceof SyntaxError) return answer(response, 400, { problem: "failed", message: error.message });
  return answer(response, 500, { problem: "failed", message: error instanceof Error ? error.message : String(error) });
}

/** The thread's last run as a restore replays it (`logOfServerThread`): its answer's events, ending with the thread as the server holds it. */
function lastRun(thread: ServerThread): RunEntry | undefined {
  return logOfServerThread(thread, new Date().toISOString()).entries.filter((entry): entry is RunEntry => entry.kind === "run").at(-1);
}
