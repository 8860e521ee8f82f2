import { EventType, type BaseEvent, type Message } from "@ag-ui/core";
import { Observable, timer, type SchedulerLike, type Subscription } from "rxjs";
import { fromObservable } from "../../runners/fromObservable";
import { isRecord } from "../../internal/isRecord";
import { threadServerError } from "../threadServerError";
import type { LangGraphClientLike, LangGraphRun, LangGraphStreamPart, RunnableLangGraphAgent } from "./client";
import { langChainMessagesToAgUi, readThreadState } from "./messages";

type Runs = NonNullable<LangGraphClientLike["runs"]>;

/** The statuses of a run not yet over. */
const GOING = new Set(["pending", "running"]);

/** The last message of the person's in the run's input, when it has an id to match it by. */
export function askedIn(run: LangGraphRun): Message | undefined {
  const given = (run.kwargs?.input as { messages?: unknown } | undefined)?.messages;
  const last = Array.isArray(given) ? given.filter((message) => isRecord(message) && message.type === "human" && typeof message.id === "string").at(-1) : undefined;
  return last === undefined ? undefined : langChainMessagesToAgUi([last])[0];
}

/**
 * A run still going, as AG-UI events from its start, live until it ends.
 *
 * A run whose stream the server kept (created with `streamResumable`, as
 * `fromAgent` creates them) is read through the agent's own public `run()`,
 * on a clone whose SDK client streams that run instead of starting one
 * (`runs.stream` is `runs.joinStream(thread, run, { lastEventId: "-1" })`):
 * the agent converts it as it converts a live run, so the same message ids,
 * steps, tool calls, snapshots and interrupt outcome come. The clone's
 * client creates no thread (a thread deleted meanwhile stays deleted), and
 * its input carries a resume when the thread waits on interrupts, so the
 * agent streams rather than answering with those interrupts again.
 *
 * Any other run cannot be joined without taking events from the reader on
 * it: it is asked after (`runs.get`) every `pollMs` on `scheduler`, and its
 * end given as `@ag-ui/langgraph` ends a run (state, messages, RUN_FINISHED
 * with the interrupts).
 */
export function runStream(agent: RunnableLangGraphAgent, runs: Runs, threadId: string, run: LangGraphRun, waiting: boolean, poll: { scheduler: SchedulerLike; pollMs: number }): Observable<BaseEvent> {
  const joined = run.kwargs?.resumable === true ? joinedRun(agent, runs, threadId, run, waiting) : runEnd(agent.client, runs, threadId, run, poll);
  return new Observable<BaseEvent>((subscriber) =>
    joined.subscribe({
      next: (event) => subscriber.next(event),
      error: (error: unknown) => subscriber.error(threadServerError("rejoin", threadId, error)),
      complete: () => subscriber.complete(),
    }),
  );
}

function joinedRun(agent: RunnableLangGraphAgent, runs: Runs, threadId: string, run: LangGraphRun, waiting: boolean): Observable<BaseEvent> {
  return new Observable<BaseEvent>((subscriber) => {
    const abort = new AbortController();
    const base = agent.client;
    const joining: Partial<Runs> = { stream: (() => runs.joinStream(threadId, run.run_id, { lastEventId: "-1", signal: abort.signal })) as Runs["stream"] };
    const noNewThread: Partial<LangGraphClientLike["threads"]> = { create: () => Promise.reject(new Error(`Thread ${threadId} is gone; a rejoin creates none`)) };
    const client = new Proxy(base, {
      get: (target, key) => (key === "runs" ? withMethods(base.runs!, joining) : key === "threads" ? withMethods(base.threads, noNewThread) : (target as unknown as Record<PropertyKey, unknown>)[key]),
    });
    const runner = agent.clone();
    runner.client = client;
    const input = {
      threadId,
      runId: run.run_id,
      messages: [],
      tools: [],
      context: [],
      state: {},
      forwardedProps: {},
      // Without it, the agent answers a thread waiting on interrupts with those interrupts, and streams nothing; it goes nowhere (the stream is joined).
      ...(waiting && { resume: [{ interruptId: "carbon-agui-rx:rejoin", status: "cancelled" as const }] }),
    };
    const subscription = fromObservable(runner.run(input)).subscribe(subscriber);
    return () => {
      abort.abort();
      subscription.unsubscribe();
    };
  });
}

/** `target` with `methods` in place of its own; its other methods called on it (the SDK's classes have private fields). */
function withMethods<T extends object>(target: T, methods: Partial<T>): T {
  return new Proxy(target, {
    get: (object, key) => {
      if (key in methods) return (methods as Record<PropertyKey, unknown>)[key];
      const value = (object as Record<PropertyKey, unknown>)[key];
      return typeof value === "function" ? value.bind(object) : value;
    },
  });
}

/** A run that kept no stream: asked after until it is over, then its end, as `@ag-ui/langgraph` ends a run. */
function runEnd(client: LangGraphClientLike, runs: Runs, threadId: string, run: LangGraphRun, { scheduler, pollMs }: { scheduler: SchedulerLike; pollMs: number }): Observable<BaseEvent> {
  return new Observable<BaseEvent>((subscriber) => {
    let asking: Subscription | undefined;
    let gone = false;
    subscriber.next({ type: EventType.RUN_STARTED, threadId, runId: run.run_id } as BaseEvent);
    const ask = async () => {
      const now = typeof runs.get === "function" ? await runs.get(threadId, run.run_id) : undefined;
      if (gone) return;
      if (now && GOING.has(now.status)) return void (asking = timer(pollMs, scheduler).subscribe(() => void ask().catch((error: unknown) => subscriber.error(error))));
      const raw = await client.threads.getState(threadId);
      if (gone) return;
      const thread = readThreadState(threadId, raw);
      subscriber.next({ type: EventType.STATE_SNAPSHOT, snapshot: (raw as { values?: unknown }).values ?? {} } as BaseEvent);
      subscriber.next({ type: EventType.MESSAGES_SNAPSHOT, messages: thread.messages } as BaseEvent);
      subscriber.next({ type: EventType.RUN_FINISHED, threadId, runId: run.run_id, ...(thread.interrupts.length > 0 && { outcome: { type: "interrupt", interrupts: thread.interrupts } }) } as BaseEvent);
      subscriber.complete();
    };
    void ask().catch((error: unknown) => subscriber.error(error));
    return () => {
      gone = true;
      asking?.unsubscribe();
    };
  });
}

export type { LangGraphStreamPart };
