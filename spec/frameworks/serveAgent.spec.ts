import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import { createSseRunner } from "carbon-agui-rx";
import { concat, EMPTY, Observable, of, Subject } from "rxjs";
import { serveAgent } from "../../examples/frameworks/serveAgent";
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
