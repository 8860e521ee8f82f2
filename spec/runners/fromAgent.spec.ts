import { AbstractAgent, HttpAgent, Middleware, type BaseEvent as ClientEvent, type RunAgentInput as ClientInput } from "@ag-ui/client";
import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import { map, Observable, of, type Subscriber, VirtualTimeScheduler } from "rxjs";
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
    /** Follows BuiltInAgent's rule: run() throws while the field is set, and the run clears it when it ends or is unsubscribed; aborting it ends the run. */
    class GuardedAgent {
      abortController: AbortController | undefined;
      readonly controllers: AbortController[] = [];
      constructor(private readonly events: BaseEvent[], private readonly endless = false) {}
      run(_input: RunAgentInput): Observable<BaseEvent> {
        if (this.abortController) throw new Error("Agent is already running");
        const controller = (this.abortController = new AbortController());
        this.controllers.push(controller);
        return new Observable<BaseEvent>((subscriber) => {
          controller.signal.addEventListener("abort", () => subscriber.complete());
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

  describe("with an agent that keeps each run's subscriber and state on itself, and runs on a server (as @ag-ui/langgraph's LangGraphAgent)", () => {
    /** The server: one run at a time per thread; a cancelled run ends when the test says so. */
    class Server {
      readonly running = new Map<string, ServerLikeAgent>();
      readonly cancelled: string[] = [];
      /** Ends the thread's run: its agent sends what the server sends after a run, to whichever subscriber it holds. */
      finish(threadId: string): void {
        const agent = this.running.get(threadId);
        this.running.delete(threadId);
        agent?.send(ev.runFinished());
        agent?.subscriber?.complete();
      }
    }

    /** Follows LangGraphAgent: run() keeps its subscriber on the instance, unsubscribing does nothing, abortRun() asks the server to cancel. */
    class ServerLikeAgent {
      subscriber: Subscriber<BaseEvent> | undefined;
      threadId: string | undefined;
      clones = 0;
      constructor(readonly server: Server) {}
      clone(): ServerLikeAgent {
        this.clones += 1;
        return new ServerLikeAgent(this.server);
      }
      abortRun(): void {
        if (this.threadId) this.server.cancelled.push(this.threadId);
      }
      send(event: BaseEvent): void {
        this.subscriber?.next(event);
      }
      run(input: RunAgentInput): Observable<BaseEvent> {
        return new Observable<BaseEvent>((subscriber) => {
          this.subscriber = subscriber;
          this.threadId = input.threadId;
          if (this.server.running.has(input.threadId)) {
            subscriber.error(new Error("HTTP 422: Thread is already running a task"));
            return;
          }
          this.server.running.set(input.threadId, this);
          subscriber.next(ev.runStarted());
          return () => undefined;
        });
      }
    }

    it("runs each run on a clone, so a run let go of sends nothing into the next", async () => {
      const server = new Server();
      const agent = new ServerLikeAgent(server);
      const run = fromAgent(agent);
      await collectFirst(run(runInput({ threadId: "a" }), { signal: new AbortController().signal }), 1);
      const second: BaseEvent[] = [];
      run(runInput({ threadId: "b" }), { signal: new AbortController().signal }).subscribe((event) => second.push(event));
      server.running.get("a")?.send(ev.textStart("late"));
      server.finish("a");
      expect(types(second)).toEqual(["RUN_STARTED"]);
      expect(agent.clones).toBe(2);
    });

    it("asks the agent to stop a run let go of before its end, and starts the thread's next run once that run has ended", async () => {
      const server = new Server();
      const run = fromAgent(new ServerLikeAgent(server));
      const stop = new AbortController();
      const first: BaseEvent[] = [];
      run(runInput(), { signal: stop.signal }).subscribe((event) => first.push(event));
      stop.abort("Stop streaming");
      expect(server.cancelled).toEqual(["thread-1"]);
      const next = collect(run(runInput({ runId: "run-2" }), { signal: new AbortController().signal }));
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(server.running.size).toBe(1);
      server.finish("thread-1");
      await waitUntil(() => server.running.size === 1);
      server.finish("thread-1");
      expect(types(await next)).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
      // The stopped run's end went nowhere.
      expect(types(first)).toEqual(["RUN_STARTED"]);
    });

    it("does not stop a run that has ended, nor hold the next one", async () => {
      const server = new Server();
      const run = fromAgent(new ServerLikeAgent(server));
      const events: BaseEvent[] = [];
      const subscription = run(runInput(), { signal: new AbortController().signal }).subscribe((event) => events.push(event));
      server.running.get("thread-1")?.send(ev.runFinished());
      server.running.delete("thread-1");
      subscription.unsubscribe();
      expect(server.cancelled).toEqual([]);
      const next = collectFirst(run(runInput(), { signal: new AbortController().signal }), 1);
      expect(types(await next)).toEqual(["RUN_STARTED"]);
      server.finish("thread-1");
    });

    it("starts the next run after stopTimeout when a stopped run never ends", async () => {
      const scheduler = new VirtualTimeScheduler();
      const server = new Server();
      const run = fromAgent(new ServerLikeAgent(server), { stopTimeout: 1_000, scheduler });
      const subscription = run(runInput({ threadId: "other" }), { signal: new AbortController().signal }).subscribe();
      subscription.unsubscribe();
      const waiting: BaseEvent[] = [];
      run(runInput({ threadId: "other" }), { signal: new AbortController().signal }).subscribe({ next: (event) => waiting.push(event), error: (error: unknown) => waiting.push({ type: String(error) } as BaseEvent) });
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(waiting).toEqual([]);
      scheduler.flush();
      await waitUntil(() => waiting.length > 0);
      // The server still runs the stopped one: it says so, and the adapter shows that error.
      expect(types(waiting)).toEqual(["Error: HTTP 422: Thread is already running a task"]);
    });
  });
});

/** An agent that answers with the names of the tools its run was given (what a middleware added shows). */
class ToolNamesAgent extends AbstractAgent {
  readonly inputs: ClientInput[] = [];
  run(input: ClientInput) {
    this.inputs.push(input);
    const names = input.tools.map((tool) => tool.name).join(",") || "none";
    return of(...([ev.runStarted(input.runId, input.threadId), ...ev.message("m1", names), ev.runFinished({ runId: input.runId, threadId: input.threadId })] as ClientEvent[]));
  }
}

/** A middleware that adds tool `name` to the run's input and marks each text delta with `mark`. */
class AddTool extends Middleware {
  constructor(
    private readonly name: string,
    private readonly mark: string,
  ) {
    super();
  }
  run(input: ClientInput, next: AbstractAgent) {
    const given = { ...input, tools: [...input.tools, { name: this.name, description: "", parameters: {} }] };
    return next.run(given).pipe(map((event) => (event.type === "TEXT_MESSAGE_CONTENT" ? { ...event, delta: `${(event as unknown as { delta: string }).delta}${this.mark}` } : event)));
  }
}

/** An agent with a field of its own and no clone() of its own, as the A2A middleware's: AbstractAgent.clone() leaves the field out. */
class CardsAgent extends AbstractAgent {
  constructor(private readonly cards: string[]) {
    super();
  }
  run(input: ClientInput) {
    // As the A2A middleware's agent does, a TypeError when its setup is missing.
    const names = this.cards.join(",");
    return of(...([ev.runStarted(input.runId, input.threadId), ...ev.message("m1", names), ev.runFinished({ runId: input.runId, threadId: input.threadId })] as ClientEvent[]));
  }
}

describe("fromAgent runs an agent as runAgent() does", () => {
  const textOf = (events: BaseEvent[]) => events.flatMap((event) => (event.type === "TEXT_MESSAGE_CONTENT" ? [(event as unknown as { delta: string }).delta] : [])).join("");

  it("through its middlewares (agent.use), the first registered seeing the input first, as runAgent() folds them", async () => {
    const agent = new ToolNamesAgent();
    agent.use(new AddTool("a", "1"), new AddTool("b", "2"));
    const events = await collect(fromAgent(agent)(runInput(), { signal: new AbortController().signal }));
    // The oracle: @ag-ui/client's own runAgent on the same agent.
    const oracle = new ToolNamesAgent();
    oracle.use(new AddTool("a", "1"), new AddTool("b", "2"));
    const { newMessages } = await oracle.runAgent();
    expect(textOf(events)).toBe(newMessages[0]!.content);
    expect(textOf(events)).toBe("a,b21");
  });

  it("with a function middleware too", async () => {
    const agent = new ToolNamesAgent();
    agent.use((input, next) => next.run({ ...input, tools: [{ name: "fn", description: "", parameters: {} }] }));
    expect(textOf(await collect(fromAgent(agent)(runInput(), { signal: new AbortController().signal })))).toBe("fn");
  });

  it("on a clone that keeps the fields the agent's clone() leaves out", async () => {
    const agent = new CardsAgent(["writer", "critic"]);
    expect((agent.clone() as unknown as { cards?: string[] }).cards).toBeUndefined();
    expect(textOf(await collect(fromAgent(agent)(runInput(), { signal: new AbortController().signal })))).toBe("writer,critic");
  });

  it("fails the run with the agent's error when its run() throws, never leaving it unended", async () => {
    const agent = new (class extends AbstractAgent {
      run(): Observable<ClientEvent> {
        throw new TypeError("Cannot read properties of undefined (reading 'map')");
      }
    })();
    await expect(collect(fromAgent(agent)(runInput(), { signal: new AbortController().signal }))).rejects.toThrow("Cannot read properties of undefined");
  });
});
