import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import { CarbonAgUiAdapter, createSseRunner } from "carbon-agui-rx";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { concat, EMPTY, Observable, of, Subject } from "rxjs";
import { serveAgent } from "../../examples/frameworks/serveAgent";
import { httpThreads } from "../../examples/web/httpThreads";
import { runInput, waitUntil } from "../support/runs";

/**
 * The example server (`examples/frameworks/serveAgent.ts`): a client that
 * goes away stops its own run there, never a later run of the same thread
 * that began meanwhile (the stop button pressed as the next message goes
 * out, its request already on the server).
 */
describe("serveAgent", () => {
  it("stops the run of a client that went away, and the thread's later run goes on to its end", async () => {
    const gates = new Map<string, Subject<void>>();
    const stopped: string[] = [];
    // An agent whose runs each wait, once begun, until the spec lets them finish; a run stopped where it runs ends at once.
    const agent = {
      clone() {
        let stop = () => undefined as void;
        let runId = "";
        return {
          abortRun: () => (stopped.push(runId), stop()),
          run: (input: RunAgentInput) =>
            new Observable<BaseEvent>((subscriber) => {
              runId = input.runId;
              const gate = new Subject<void>();
              gates.set(input.runId, gate);
              stop = () => subscriber.complete();
              const event = (type: EventType) => ({ type, threadId: input.threadId, runId: input.runId }) as BaseEvent;
              return concat(of(event(EventType.RUN_STARTED)), new Observable<BaseEvent>((waiting) => gate.subscribe({ complete: () => waiting.complete() })), of(event(EventType.RUN_FINISHED))).subscribe(subscriber);
            }),
        };
      },
      run: () => EMPTY,
    };
    const server = await serveAgent(agent as never);
    try {
      const run = createSseRunner({ url: server.url });
      const story = new AbortController();
      const first = run(runInput({ threadId: "t", runId: "story" }), { signal: story.signal }).subscribe();
      await waitUntil(() => gates.has("story"));
      const events: string[] = [];
      let ended = false;
      run(runInput({ threadId: "t", runId: "short" }), { signal: new AbortController().signal }).subscribe({ next: (event: BaseEvent) => events.push(event.type), complete: () => (ended = true) });
      await waitUntil(() => gates.has("short"));

      // The first client goes away while the thread's second run is going.
      story.abort();
      first.unsubscribe();
      await waitUntil(() => stopped.includes("story"));
      gates.get("short")!.complete();
      await waitUntil(() => ended);
      expect(events).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
      expect(stopped).toEqual(["story"]);
    } finally {
      await server.close();
    }
  });
});

/**
 * The demo's thread API (serveAgent's routes, the page's httpThreads) reads a thread in two requests: the thread, then
 * the run still going on it. A run that ends between the two (a reload as the answer's last words stream) is no
 * longer going when the page asks for it: the rejoin gives its end, the thread as the server holds it then, so the
 * whole answer shows once (it showed "The agent ended the run without answering").
 */
describe("serveAgent's thread routes", () => {
  it("gives a run that ended between the page's load and its rejoin as its end: the whole answer, once", async () => {
    const question = { id: "u-story", type: "human", content: "Tell me a story" };
    const answer = { id: "run-story", type: "ai", content: "Once upon a time there was a graph. Then someone pressed stop." };
    // The run goes on while the page reads the thread, and has ended when it asks for the run.
    let ended = false;
    const client = {
      threads: { getState: async () => ({ values: { messages: ended ? [question, answer] : [question] }, tasks: [], next: [] }) },
      runs: {
        list: async (_threadId: string, { status }: { status?: string } = {}) => {
          if (ended || status !== "running") return [];
          ended = true;
          return [{ run_id: "r1", status: "running", kwargs: { resumable: true, input: { messages: [question] } } }];
        },
        joinStream: () => {
          throw new Error("a run that has ended is not joined");
        },
        cancel: async () => undefined,
        stream: () => undefined,
      },
    };
    const agent = { client, graphId: "assistant", clone: () => agent, run: () => EMPTY };
    const server = await serveAgent(agent as never);
    try {
      const errors: unknown[] = [];
      const adapter = new CarbonAgUiAdapter({ threadId: "t1", coalesce: false, run: createSseRunner({ url: server.url }), threads: httpThreads({ url: server.url }), onError: (error) => errors.push(error) });
      const carbon = new CarbonRecorder();
      const history = await adapter.loadHistory(carbon);
      expect(history.map(({ message }) => ("input" in message ? message.input.text : ""))).toEqual(["Tell me a story"]);
      await waitUntil(() => carbon.chunks.length > 0 && carbon.waitingForFinal.length === 0);
      expect(carbon.transcript()).toBe(`Assistant: ${answer.content}`);
      expect(errors).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
