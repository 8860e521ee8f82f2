import { HttpAgent } from "@ag-ui/client";
import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import { Observable } from "rxjs";
import { type AgentServer } from "carbon-agui-rx/testing";
import { startEncodedAgentServer } from "../support/agentServer";
import { agUiToCarbon } from "../../src/operators/agUiToCarbon";
import { fromAgent } from "../../src/runners/fromAgent";
import { carbon, ev } from "../support/builders";
import { collect, collectFirst, runInput, types, waitUntil } from "../support/runs";

const answer = [ev.runStarted(), ev.textStart("m1"), ev.text("m1", "Hi "), ev.text("m1", "there"), ev.textEnd("m1"), ev.runFinished()];

describe("fromAgent", () => {
  let server: AgentServer | undefined;
  afterEach(() => server?.close());

  it("runs a real HttpAgent through agUiToCarbon", async () => {
    server = await startEncodedAgentServer((_input, sse) => {
      for (const event of answer) sse.send(event);
      sse.end();
    });
    const run = fromAgent(new HttpAgent({ url: server.url }));
    const chunks = await collect(run(runInput(), { signal: new AbortController().signal }).pipe(agUiToCarbon({ responseId: "r1" })));
    expect(chunks).toEqual([
      carbon.partialText("r1", "m1", "Hi "),
      carbon.partialText("r1", "m1", "there"),
      carbon.completeText("r1", "m1", "Hi there"),
      carbon.final("r1", [carbon.textItem("m1", "Hi there")]),
    ]);
  });

  it("starts the request on subscription, not when the run is created", async () => {
    server = await startEncodedAgentServer((_input, sse) => sse.end());
    const run = fromAgent(new HttpAgent({ url: server.url }))(runInput(), { signal: new AbortController().signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.inputs).toHaveLength(0);
    await collect(run);
    expect(server.inputs).toHaveLength(1);
  });

  it("aborts the request when unsubscribed, and runs again on a fresh controller", async () => {
    server = await startEncodedAgentServer((_input, sse) => sse.send(answer[0]!));
    const agent = new HttpAgent({ url: server.url });
    const run = fromAgent(agent);
    expect(types(await collectFirst(run(runInput(), { signal: new AbortController().signal }), 1))).toEqual(["RUN_STARTED"]);
    await server.responses[0]?.closed;
    expect(types(await collectFirst(run(runInput(), { signal: new AbortController().signal }), 1))).toEqual(["RUN_STARTED"]);
    await server.responses[1]?.closed;
  });

  it("aborts the request when the signal aborts", async () => {
    server = await startEncodedAgentServer((_input, sse) => sse.send(answer[0]!));
    const controller = new AbortController();
    const subscription = fromAgent(new HttpAgent({ url: server.url }))(runInput(), { signal: controller.signal }).subscribe({ error: () => undefined });
    await waitUntil(() => server?.responses.length === 1);
    controller.abort("Stop streaming");
    await server.responses[0]?.closed;
    subscription.unsubscribe();
  });

  describe("with an agent that sets its own abortController in run() as its run-in-progress guard (as CopilotKit's BuiltInAgent)", () => {
    /** Follows BuiltInAgent's rule: run() throws while the field is set, and the run clears it when it ends or is unsubscribed. */
    class GuardedAgent {
      abortController: AbortController | undefined;
      readonly controllers: AbortController[] = [];
      constructor(private readonly events: BaseEvent[], private readonly endless = false) {}
      run(_input: RunAgentInput): Observable<BaseEvent> {
        if (this.abortController) throw new Error("Agent is already running");
        const controller = (this.abortController = new AbortController());
        this.controllers.push(controller);
        return new Observable<BaseEvent>((subscriber) => {
          for (const event of this.events) subscriber.next(event);
          if (!this.endless) {
            this.abortController = undefined;
            subscriber.complete();
          }
          return () => {
            if (this.abortController === controller) this.abortController = undefined;
          };
        });
      }
    }

    it("runs it turn after turn", async () => {
      const agent = new GuardedAgent(answer);
      const run = fromAgent(agent);
      expect(types(await collect(run(runInput(), { signal: new AbortController().signal })))).toEqual(types(answer));
      expect(types(await collect(run(runInput(), { signal: new AbortController().signal })))).toEqual(types(answer));
    });

    it("aborts the agent's own controller when the run is unsubscribed or the signal aborts", async () => {
      const agent = new GuardedAgent([answer[0]!], true);
      const run = fromAgent(agent);
      await collectFirst(run(runInput(), { signal: new AbortController().signal }), 1);
      expect(agent.controllers[0]?.signal.aborted).toBe(true);
      const stop = new AbortController();
      const subscription = run(runInput(), { signal: stop.signal }).subscribe();
      expect(agent.controllers[1]?.signal.aborted).toBe(false);
      stop.abort("Stop streaming");
      expect(agent.controllers[1]?.signal.aborted).toBe(true);
      subscription.unsubscribe();
    });
  });
});
