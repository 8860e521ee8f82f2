import type { BaseEvent, Message, RunAgentInput } from "@ag-ui/core";
import { CarbonRecorder, ev, startToolServer, type ToolServer } from "carbon-agui-rx/testing";
import { ToolClient } from "carbon-agui-rx/tool-client";
import { CarbonAgUiAdapter, type CarbonAgUiAdapterOptions } from "../src/adapter";
import type { CarbonAgUiError } from "../src/errors";
import type { ApprovalRunStep } from "../src/adapter/approvals/approvalRuns";
import { approvalIdOf } from "../src/hitl";
import { memoryStore } from "../src/persistence/memoryStore";

/**
 * A tool server's approvals decided in the chat, against the reference tool
 * server over loopback HTTP: an agent (scripted here) runs `send_email` on
 * the tool server, which answers 202 pending_approval; the adapter shows the
 * decision card, sends the answer to `decide`, and the agent goes on with the
 * tool's result.
 */
let server: ToolServer;
/** The adapters a test made: they follow runs on the tool server until disposed. */
const made: CarbonAgUiAdapter[] = [];
beforeEach(async () => {
  server = await startToolServer();
});
afterEach(async () => {
  for (const adapter of made.splice(0)) adapter.dispose();
  await server.close();
});

const request = (text: string) => ({ id: `u-${text}`, input: { text }, history: {} });
const sendOptions = () => ({ signal: new AbortController().signal });
const fastRetry = { maxRetries: 0 };

/** The agent: the first run calls send_email on the tool server as the run's owner; each later run answers from the call's result in its input. */
function agentOn(url: string, inputs: RunAgentInput[]) {
  const agentsClient = new ToolClient({ baseUrl: url, token: "alice-token", retry: fastRetry });
  return async function* run(input: RunAgentInput): AsyncGenerator<BaseEvent> {
    inputs.push(input);
    yield ev.runStarted();
    if (inputs.length === 1) {
      const args = { to: "ops@example.com", subject: "Report" };
      const call = await agentsClient.invoke("send_email", args, { runId: input.runId, threadId: input.threadId });
      const result = call.status === "pending_approval" ? { pending_approval: call.approval_id } : call.result;
      yield* ev.toolCall("call-1", "send_email", args, "a1");
      yield ev.toolResult("call-1", JSON.stringify(result), "r1");
      yield* ev.message("a1-text", "I asked for approval.");
    } else {
      const result = [...input.messages].reverse().find((message): message is Extract<Message, { role: "tool" }> => message.role === "tool");
      yield* ev.message(`a${inputs.length}`, `Outcome: ${result?.content}`);
    }
    yield ev.runFinished();
  };
}

function adapterWith(extra: Partial<CarbonAgUiAdapterOptions> = {}) {
  const inputs: RunAgentInput[] = [];
  const errors: CarbonAgUiError[] = [];
  const reviewer = new ToolClient({ baseUrl: server.url, token: "reviewer-token", retry: fastRetry });
  const warnings: CarbonAgUiError[] = [];
  const adapter = new CarbonAgUiAdapter({ threadId: "thread-1", coalesce: false, run: agentOn(server.url, inputs), toolClient: reviewer, onError: (error) => errors.push(error), onWarning: (warning) => warnings.push(warning), ...extra });
  made.push(adapter);
  return { adapter, inputs, errors, warnings, reviewer };
}

async function askedToSend() {
  const setup = adapterWith();
  const carbon = new CarbonRecorder();
  await setup.adapter.sendMessage(request("Send the report"), sendOptions(), carbon);
  return { ...setup, carbon };
}

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waitFor: not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const lastToolResult = (input: RunAgentInput) => input.messages.filter((message) => message.role === "tool").at(-1);

describe("a tool server's approval, decided in the chat", () => {
  it("waits as a decision card: the step waits for approval, the pending interrupt names the approval, and an edit is checked against the tool's input schema", async () => {
    const { adapter, carbon } = await askedToSend();
    expect(carbon.transcript()).toContain("send_email (success)");
    expect(carbon.transcript()).toContain("[decision card: Allow send_email?");
    const [pending] = adapter.pendingInterrupts;
    expect(approvalIdOf(pending!.interrupt)).toMatch(/^apr_/);
    expect(pending!.interrupt.responseSchema).toMatchObject({ type: "object", required: ["to"] });
  });

  it("approved: the tool runs on the tool server, its result replaces the pending one, and the agent goes on with it", async () => {
    const { adapter, carbon, inputs, errors } = await askedToSend();
    await adapter.respondToInterrupt({ type: "approve" }, carbon);
    expect(server.toolRuns("send_email")).toBe(1);
    expect(inputs).toHaveLength(2);
    expect(inputs[1]!.resume).toBeUndefined();
    const result = lastToolResult(inputs[1]!);
    expect(result).toMatchObject({ id: "r1", toolCallId: "call-1" });
    expect(JSON.parse(result!.content as string)).toMatchObject({ status: "ok", result: { sent: true, to: "ops@example.com" } });
    expect(inputs[1]!.messages.filter((message) => message.role === "tool")).toHaveLength(1);
    expect(carbon.transcript()).toContain('Outcome: {"status":"ok"');
    expect(adapter.pendingInterrupts).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("approved with edited arguments: the tool runs with them", async () => {
    const { adapter, carbon, inputs } = await askedToSend();
    await adapter.respondToInterrupt({ type: "edit", args: { to: "ops@example.com", cc: "audit@example.com" } }, carbon);
    expect(JSON.parse(lastToolResult(inputs[1]!)!.content as string)).toMatchObject({ result: { cc: "audit@example.com" } });
  });

  it("denied with a reason: the tool never runs, and the agent learns why", async () => {
    const { adapter, carbon, inputs } = await askedToSend();
    await adapter.respondToInterrupt({ type: "reject", reason: "not today" }, carbon);
    expect(server.toolRuns("send_email")).toBe(0);
    expect(JSON.parse(lastToolResult(inputs[1]!)!.content as string)).toMatchObject({ status: "denied", reason: "not today" });
  });

  it("decided elsewhere first: an outcome, not a failure; nothing runs twice", async () => {
    const { adapter, carbon, inputs, errors, reviewer } = await askedToSend();
    await reviewer.decide(approvalIdOf(adapter.pendingInterrupts[0]!.interrupt)!, { approved: true });
    await adapter.respondToInterrupt({ type: "approve" }, carbon);
    expect(server.toolRuns("send_email")).toBe(1);
    expect(JSON.parse(lastToolResult(inputs[1]!)!.content as string)).toEqual({ status: "approved", decided_elsewhere: true });
    expect(errors).toEqual([]);
  });

  /** The chat as the run's owner (who may decide too, and follow the run's events, which the tool server shows its owner only). */
  async function askedToSendAsOwner() {
    // Reconnects quickly: the events stream may be cut.
    const owner = new ToolClient({ baseUrl: server.url, token: "alice-token", retry: { maxRetries: 3, baseDelayMs: 10, maxDelayMs: 50 } });
    const setup = adapterWith({ toolClient: owner });
    const carbon = new CarbonRecorder();
    await setup.adapter.sendMessage(request("Send the report"), sendOptions(), carbon);
    return { ...setup, carbon };
  }

  it("decided by another reviewer while the card waits: the tool server's event takes it off the pending list, once, and the agent goes on by itself with how it was decided and how its tool ended", async () => {
    const { adapter, carbon, inputs, reviewer } = await askedToSendAsOwner();
    const interruptId = adapter.pendingInterrupts[0]!.interrupt.id;
    await waitFor(() => server.requests.some((seen) => seen.path.includes("/events")));
    await reviewer.decide(approvalIdOf(adapter.pendingInterrupts[0]!.interrupt)!, { approved: true });
    await waitFor(() => adapter.pendingInterrupts.length === 0);
    await expect(adapter.respondToInterrupt({ type: "approve" }, carbon, {}, interruptId)).rejects.toThrow("no pending interrupt");
    await waitFor(() => carbon.transcript().includes("Outcome:"));
    expect(inputs).toHaveLength(2);
    expect(inputs[1]!.resume).toBeUndefined();
    expect(inputs[1]!.messages.filter((message) => message.role === "tool").map((message) => JSON.parse(message.content as string))).toEqual([
      { status: "approved", decided_elsewhere: true, decided_by: "reviewer", tool_status: "finished" },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(inputs).toHaveLength(2);
    expect(server.toolRuns("send_email")).toBe(1);
    adapter.dispose();
  });

  it("decided elsewhere as the chat answers: whichever lands first, the agent goes on once and the tool runs once", async () => {
    const { adapter, carbon, inputs, reviewer, errors } = await askedToSendAsOwner();
    await waitFor(() => server.requests.some((seen) => seen.path.includes("/events")));
    const approvalId = approvalIdOf(adapter.pendingInterrupts[0]!.interrupt)!;
    await Promise.allSettled([reviewer.decide(approvalId, { approved: true }), adapter.respondToInterrupt({ type: "approve" }, carbon)]);
    await waitFor(() => inputs.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(inputs).toHaveLength(2);
    expect(server.toolRuns("send_email")).toBe(1);
    expect(errors).toEqual([]);
    adapter.dispose();
  });

  it("an events stream cut mid-run reconnects, and the decision elsewhere still lands once, the agent going on once", async () => {
    // Twice: the first events request is the run's own, at its end (the approvals it asked for); the second follows the approval.
    server.inject({ type: "drop-mid-frame", afterEvents: 1 }, { route: "events", times: 2 });
    const { adapter, reviewer, inputs } = await askedToSendAsOwner();
    await waitFor(() => server.requests.filter((seen) => seen.path.includes("/events")).length >= 1);
    await reviewer.decide(approvalIdOf(adapter.pendingInterrupts[0]!.interrupt)!, { approved: false, reason: "no" });
    await waitFor(() => adapter.pendingInterrupts.length === 0);
    // Both readers of the run's events (the approvals its stream did not show, from its end; the approval's tool run) were cut, and came back with Last-Event-ID.
    await waitFor(() => server.requests.filter((seen) => seen.path.includes("/events") && seen.path.includes(inputs[0]!.runId)).length === 4);
    expect(server.requests.filter((seen) => seen.path.includes("/events") && seen.path.includes(inputs[0]!.runId)).map((seen) => seen.headers["last-event-id"] !== undefined)).toEqual([false, false, true, true]);
    await waitFor(() => inputs.length === 2);
    expect(JSON.parse(lastToolResult(inputs[1]!)!.content as string)).toEqual({ status: "denied", decided_elsewhere: true, decided_by: "reviewer" });
    expect(adapter.messages.filter((message) => message.role === "tool")).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(inputs).toHaveLength(2);
    adapter.dispose();
  });

  describe("the card's tool run, from the run's events", () => {
    const stepsOf = (adapter: CarbonAgUiAdapter, interruptId: string) => {
      const steps: ApprovalRunStep[] = [];
      adapter.approvalRun$(interruptId).subscribe((step) => steps.push(step));
      return steps;
    };

    it("approved here: started, finished, and the tool's result", async () => {
      const { adapter, carbon } = await askedToSendAsOwner();
      const steps = stepsOf(adapter, adapter.pendingInterrupts[0]!.interrupt.id);
      await waitFor(() => server.requests.some((seen) => seen.path.includes("/events")));
      await adapter.respondToInterrupt({ type: "approve" }, carbon);
      await waitFor(() => steps.length === 3);
      // The tool server's answer to decide and its events come apart: the order between them is not fixed.
      expect(steps).toEqual(expect.arrayContaining([{ step: "started" }, { step: "finished" }, { step: "result", result: expect.objectContaining({ sent: true, to: "ops@example.com" }) }]));
      adapter.dispose();
    });

    it("a tool that fails: started, then failed with the problem's kind", async () => {
      await server.close();
      const failing = { name: "send_email", description: "Fails once approved.", approval: "required" as const, inputSchema: { type: "object", required: ["to"] }, run: () => Promise.reject(new Error("smtp down")) };
      server = await startToolServer({ tools: [failing] });
      const { adapter, carbon, errors } = await askedToSendAsOwner();
      const steps = stepsOf(adapter, adapter.pendingInterrupts[0]!.interrupt.id);
      await waitFor(() => server.requests.some((seen) => seen.path.includes("/events")));
      await adapter.respondToInterrupt({ type: "approve" }, carbon).catch(() => undefined);
      await waitFor(() => steps.length === 2);
      expect(steps).toEqual([{ step: "started" }, { step: "failed", kind: "tool-failed" }]);
      expect(errors).toHaveLength(1);
      adapter.dispose();
    });

    it("a stream cut mid-run and replayed in full on reconnect shows no step twice", async () => {
      // The first events request is the run's own, at its end (the approvals it asked for): the faults are for the approval's.
      server.inject({ type: "drop-mid-frame", afterEvents: 2 }, { route: "events", times: 2 });
      server.inject({ type: "replay-too-much" }, { route: "events" });
      const { adapter, carbon } = await askedToSendAsOwner();
      const steps = stepsOf(adapter, adapter.pendingInterrupts[0]!.interrupt.id);
      await waitFor(() => server.requests.some((seen) => seen.path.includes("/events")));
      await adapter.respondToInterrupt({ type: "approve" }, carbon);
      await waitFor(() => steps.some((step) => step.step === "finished") && steps.some((step) => step.step === "result"));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(server.requests.filter((seen) => seen.path.includes("/events")).length).toBeGreaterThanOrEqual(2);
      expect(steps.map((step) => step.step).sort()).toEqual(["finished", "result", "started"]);
      adapter.dispose();
    });
  });

  it("a double click sends one decision", async () => {
    const { adapter, carbon } = await askedToSend();
    const first = adapter.respondToInterrupt({ type: "approve" }, carbon);
    const second = adapter.respondToInterrupt({ type: "approve" }, carbon).catch((error: unknown) => error);
    await first;
    expect(await second).toBeInstanceOf(Error);
    expect(server.requests.filter((seen) => seen.path.endsWith("/decide"))).toHaveLength(1);
  });

  it("the tool server down at decide: the answer rejects, onError hears of it, and the card can be answered again", async () => {
    const { adapter, carbon, inputs, errors } = await askedToSend();
    server.inject({ type: "status", status: 503 }, { route: "decide", times: 1 });
    await expect(adapter.respondToInterrupt({ type: "approve" }, carbon)).rejects.toBeDefined();
    expect(errors).toHaveLength(1);
    expect(adapter.pendingInterrupts).toHaveLength(1);
    expect(inputs).toHaveLength(1);
    await adapter.respondToInterrupt({ type: "approve" }, carbon);
    expect(server.toolRuns("send_email")).toBe(1);
  });

  it("a reviewer the tool server refuses (403): onError gets the typed error, and the token reaches no message", async () => {
    const inputs: RunAgentInput[] = [];
    const errors: CarbonAgUiError[] = [];
    const outsider = new ToolClient({ baseUrl: server.url, token: "bob-token", retry: fastRetry });
    const warnings: CarbonAgUiError[] = [];
    const adapter = new CarbonAgUiAdapter({ threadId: "thread-1", coalesce: false, run: agentOn(server.url, inputs), toolClient: outsider, onError: (error) => errors.push(error), onWarning: (warning) => warnings.push(warning) });
    made.push(adapter);
    const carbon = new CarbonRecorder();
    await adapter.sendMessage(request("Send the report"), sendOptions(), carbon);
    const rejection = await adapter.respondToInterrupt({ type: "approve" }, carbon).catch((error: unknown) => error);
    expect(errors).toHaveLength(1);
    expect((errors[0]!.cause as { status?: number }).status).toBe(403);
    expect(JSON.stringify([String(rejection), errors[0]!.message, warnings.map((warning) => warning.message), carbon.chunks])).not.toContain("bob-token");
    expect(adapter.pendingInterrupts).toHaveLength(1);
  });

  it("a message sent instead leaves the approval waiting for its reviewer, answerable after it", async () => {
    const { adapter, carbon, inputs } = await askedToSend();
    await adapter.sendMessage(request("Anything else?"), sendOptions(), carbon);
    expect(inputs[1]!.resume).toBeUndefined();
    expect(adapter.pendingInterrupts).toHaveLength(1);
    await adapter.respondToInterrupt({ type: "approve" }, carbon);
    expect(server.toolRuns("send_email")).toBe(1);
  });

  describe("after a reload", () => {
    const withStore = (store = memoryStore()) => {
      const inputs: RunAgentInput[] = [];
      const reviewer = new ToolClient({ baseUrl: server.url, token: "reviewer-token", retry: fastRetry });
      const warnings: CarbonAgUiError[] = [];
      const adapter = new CarbonAgUiAdapter({ threadId: "thread-1", coalesce: false, run: agentOn(server.url, inputs), toolClient: reviewer, persistence: { store, channel: false }, onWarning: (warning) => warnings.push(warning) });
      made.push(adapter);
      return { adapter, inputs, store, reviewer, warnings };
    };

    it("a pending approval comes back as a live card, answerable on the tool server", async () => {
      const first = withStore();
      await first.adapter.sendMessage(request("Send the report"), sendOptions(), new CarbonRecorder());
      const second = withStore(first.store);
      const carbon = new CarbonRecorder();
      await second.adapter.loadHistory(carbon);
      expect(second.adapter.pendingInterrupts).toHaveLength(1);
      second.inputs.push(...first.inputs);
      await second.adapter.respondToInterrupt({ type: "approve" }, carbon);
      expect(server.toolRuns("send_email")).toBe(1);
      expect(carbon.transcript()).toContain('Outcome: {"status":"ok"');
    });

    it("one decided on the tool server meanwhile restores answered, and the next run carries how it was decided", async () => {
      const first = withStore();
      await first.adapter.sendMessage(request("Send the report"), sendOptions(), new CarbonRecorder());
      const interruptId = first.adapter.pendingInterrupts[0]!.interrupt.id;
      await first.reviewer.decide(approvalIdOf(first.adapter.pendingInterrupts[0]!.interrupt)!, { approved: false, reason: "elsewhere" });
      const second = withStore(first.store);
      second.inputs.push(...first.inputs);
      const carbon = new CarbonRecorder();
      await second.adapter.loadHistory(carbon);
      expect(second.adapter.pendingInterrupts).toEqual([]);
      expect(second.adapter.interruptAnswer(interruptId)).toBe("reject");
      await second.adapter.sendMessage(request("And?"), sendOptions(), carbon);
      expect(JSON.parse(lastToolResult(second.inputs.at(-1)!)!.content as string)).toEqual({ status: "denied", decided_elsewhere: true });
    });
  });
});
