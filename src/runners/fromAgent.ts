import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import { asyncScheduler, concat, defer, from, ignoreElements, Observable, timer, type SchedulerLike, type Subscribable } from "rxjs";
import { CarbonAgUiError } from "../errors";
import { fromObservable } from "./fromObservable";
import type { ObservableRunAgent, RunAgentOptions } from "./runAgent";
import { serverRunStop } from "./serverRunStop";
import { abortReason } from "../internal/abort";
import { isLangGraphAgent, langGraphThreads, type LangGraphAgentLike, type LangGraphThreadsOptions } from "../threads/langGraphThreads";
import { agentConnect, connectThreads, implementsConnect } from "../threads/connectThreads";
import { langGraphSubagents, type SubagentVisibility } from "../operators/check/langGraphSubagents";

/**
 * The part of an `@ag-ui/client` `HttpAgent` (or any `AbstractAgent`, such as
 * CopilotKit's `BuiltInAgent`, `MastraAgent` or `@ag-ui/langgraph`'s
 * `LangGraphAgent`) that `fromAgent` uses. Its `clone()`, `abortRun()` and
 * `abortController`, when it has them, are used as described at `fromAgent`;
 * they are not part of the type, as `BuiltInAgent` declares its controller
 * private. `run` is typed loosely because agents built on another
 * `@ag-ui/core` version (CopilotKit 1.75 is on 0.0.59) declare their own
 * input and event types; the events are checked against AG-UI 1.0
 * downstream (`validateEvents`).
 */
export interface AgUiAgent {
  run(input: never): Subscribable<object>;
}

export interface FromAgentOptions {
  /**
   * How long the next run on a thread waits for a stopped run of that thread
   * to end, in milliseconds, before it starts anyway (reported to the run's
   * `onWarning` when it does). Default 5,000.
   */
  stopTimeout?: number;
  /** Tells the time for `stopTimeout`. Default: the adapter's scheduler (the run's `scheduler`), else the async scheduler. */
  scheduler?: SchedulerLike;
  /** The limits of reading a LangGraph server's threads, for a `LangGraphAgent` (see `langGraphThreads`). */
  langGraph?: LangGraphThreadsOptions;
  /**
   * How a LangGraph supervisor's workers show (`langGraphSubagents`), named as
   * the Python bridge names it: `attributed` (default: each worker a subagent,
   * its work its own step, the supervisor's words the answer), `hidden`, or
   * `inline` (as `@ag-ui/langgraph` streams them).
   */
  subagentVisibility?: SubagentVisibility;
}

/** What a run goes through: the agent, or a middleware (`agent.use(...)`) in front of what follows it. */
type Runs = { run(input: RunAgentInput): Subscribable<BaseEvent>; readonly messages?: unknown; readonly state?: unknown };

/** The agent as `fromAgent` drives it. */
type DrivenAgent = Runs & {
  abortController?: AbortController;
  clone?: () => DrivenAgent;
  abortRun?: () => void;
  /** `@ag-ui/client`'s middlewares, in the order `use` registered them. */
  middlewares?: { run(input: RunAgentInput, next: Runs): Subscribable<BaseEvent> }[];
};

/**
 * An agent of its own for one run: `agent.clone()`, with what the clone
 * left out. `AbstractAgent.clone()` copies the base fields only, so a
 * subclass with fields of its own and no `clone()` of its own (the A2A
 * middleware's agent cards and orchestrator) loses them; the fields the
 * clone lacks are the agent's setup (the original is never run), and are
 * given to it as they are.
 */
function runnerOf(agent: DrivenAgent): DrivenAgent {
  if (typeof agent.clone !== "function") return agent;
  const runner = agent.clone();
  for (const key of Object.keys(agent)) if (!(key in runner)) (runner as Record<string, unknown>)[key] = (agent as Record<string, unknown>)[key];
  return runner;
}

/** `input` through the agent's middlewares and then the agent, as `runAgent()` folds them (`reduceRight`): the first registered sees the input first. */
function throughMiddlewares(agent: DrivenAgent, input: RunAgentInput): Subscribable<BaseEvent> {
  const middlewares = Array.isArray(agent.middlewares) ? agent.middlewares : [];
  const first = middlewares.reduceRight<Runs>(
    (next, middleware) => ({
      run: (given) => middleware.run(given, next),
      get messages() {
        return next.messages;
      },
      get state() {
        return next.state;
      },
    }),
    agent,
  );
  return first.run(input);
}

const DEFAULT_STOP_TIMEOUT_MS = 5_000;

const isEnd = (event: BaseEvent) => event.type === "RUN_FINISHED" || event.type === "RUN_ERROR";

/**
 * A `RunAgent` over an `@ag-ui/client` agent, called only on subscription.
 *
 * Each run has an agent of its own, `agent.clone()` when the agent has one:
 * agents keep per-run state on themselves (`LangGraphAgent` sends its events
 * to the subscriber of the latest run, so a run that goes on after it was let
 * go of would write into the next), and a clone keeps one run from reaching
 * another. A clone that left out fields of the agent's gets them (see
 * `runnerOf`). The run goes through the agent's middlewares
 * (`agent.use(...)`), as `runAgent()` runs it: `run()` alone skips them.
 *
 * A run let go of before its RUN_FINISHED or RUN_ERROR (unsubscribed, or
 * `signal` aborted) is stopped where the agent runs it: its `abortRun()`
 * (`LangGraphAgent` cancels the server's run, `BuiltInAgent` its model; see
 * `serverRunStop` for a LangGraph run stopped before its first event), and
 * its `abortController` aborted (`HttpAgent`'s request). Its events are
 * dropped from then on, and the next run on the same thread waits until it
 * has ended (at most `stopTimeout`): a LangGraph server refuses a second run
 * on a busy thread ("Thread is already running a task").
 *
 * Where the agent keeps its threads, the runner's `threads` reads them (see
 * `AgentThreads`): `connectThreads` for an agent that implements AG-UI's
 * `connect` (CopilotKit's `ProxiedCopilotRuntimeAgent`), and
 * `langGraphThreads` for a `LangGraphAgent`, whose runs are
 * then created with `onDisconnect: "continue"` and `streamResumable: true`
 * (unless `forwardedProps` says otherwise), so a page that goes away never
 * ends the server's run, and the page that comes back rejoins it from its
 * start. Carbon's stop button still stops it (`abortRun`).
 *
 * Agents use `abortController` two ways. `HttpAgent` holds one between runs
 * and `run()` starts its fetch with the signal of whatever the field holds,
 * ignoring unsubscription: it gets a fresh controller for each run. Others
 * leave the field empty when idle and set their own in `run()`, as their
 * guard against a second run (CopilotKit's `BuiltInAgent`): theirs is kept,
 * as assigning one first would make `run()` throw "Agent is already running".
 */
export function fromAgent(agent: AgUiAgent, options: FromAgentOptions = {}): ObservableRunAgent {
  const { stopTimeout = DEFAULT_STOP_TIMEOUT_MS } = options;
  const original = agent as unknown as DrivenAgent;
  /** Per thread, the runs let go of that have not ended yet: each settles once its run has ended or `stopTimeout` is over. */
  const stopping = new Map<string, Set<Promise<void>>>();

  const track = (threadId: string, ended: Promise<void>) => {
    const runs = stopping.get(threadId) ?? new Set();
    stopping.set(threadId, runs.add(ended));
    void ended.then(() => {
      runs.delete(ended);
      if (runs.size === 0) stopping.delete(threadId);
    });
  };

  const langGraph = isLangGraphAgent(agent);
  const start = (input: RunAgentInput, { signal, scheduler = asyncScheduler, onWarning }: RunAgentOptions) =>
    new Observable<BaseEvent>((subscriber) => {
      const runner = runnerOf(original);
      if (runner.abortController !== undefined) runner.abortController = new AbortController();
      const serverRun = serverRunStop(runner, input);
      const streamed = fromObservable(throughMiddlewares(runner, serverRun?.input ?? input));
      const events = langGraph ? streamed.pipe(langGraphSubagents({ visibility: options.subagentVisibility ?? "attributed" })) : streamed;
      const controller = runner.abortController ?? new AbortController();
      let ended = false;
      let onEnded = () => undefined as void;
      const end = () => ((ended = true), onEnded());
      const subscription = events.subscribe({
        next: (event) => {
          ended ||= isEnd(event);
          subscriber.next(event);
        },
        error: (error: unknown) => (end(), subscriber.error(error)),
        complete: () => (end(), subscriber.complete()),
      });
      const aborted = abortReason(signal).subscribe(() => subscriber.unsubscribe());
      return () => {
        aborted.unsubscribe();
        if (ended) return subscription.unsubscribe();
        // Let go of early: stopped where it runs, and listened to (its events go nowhere) until it has ended.
        const giveUp = timer(stopTimeout, options.scheduler ?? scheduler).subscribe(() => {
          subscription.unsubscribe();
          onEnded();
          onWarning?.(new CarbonAgUiError(`A stopped run of thread ${input.threadId} had not ended after ${stopTimeout} ms (stopTimeout); the next run on it starts anyway`));
        });
        track(input.threadId, new Promise<void>((resolve) => (onEnded = () => (giveUp.unsubscribe(), resolve()))));
        runner.abortRun?.();
        serverRun?.stop();
        // No reason: HttpAgent rethrows a body-cancel reason not named AbortError as an unhandled rejection,
        // and Carbon's reasons are plain strings. The default reason is an AbortError.
        controller.abort();
      };
    });

  // A LangGraph run goes on when its client goes away (said, not left to the server's default: `on_disconnect` may be
  // "cancel") and
  // keeps its stream on the server, so a page that went away can rejoin it from its start.
  const kept = (input: RunAgentInput): RunAgentInput => (langGraph ? { ...input, forwardedProps: { onDisconnect: "continue", streamResumable: true, ...(input.forwardedProps as object | undefined) } } : input);
  // A run waits for the runs of its thread that were let go of and have not ended.
  const runner: ObservableRunAgent = (input, runOptions) =>
    defer(() => {
      const before = [...(stopping.get(input.threadId) ?? [])];
      const start$ = defer(() => start(kept(input), runOptions));
      return before.length === 0 ? start$ : concat(from(Promise.all(before)).pipe(ignoreElements()), start$);
    });
  const threads = langGraph ? langGraphThreads(agent as unknown as LangGraphAgentLike, { ...options.langGraph, subagentVisibility: options.subagentVisibility ?? "attributed" }) : implementsConnect(agent) ? connectThreads(agentConnect(agent)) : undefined;
  return threads ? Object.assign(runner, { threads }) : runner;
}
