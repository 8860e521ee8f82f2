import type { BaseEvent, Message, RunAgentInput } from "@ag-ui/core";
import { NEVER } from "rxjs";
import { CarbonRecorder, ev, startToolServer, type ToolServer } from "carbon-agui-rx/testing";
import { ToolClient } from "carbon-agui-rx/tool-client";
import { CarbonAgUiAdapter, type CarbonAgUiAdapterOptions } from "../src/adapter";
import type { ToolServerApprovals } from "../src/adapter/approvals/toolServer";
import { CarbonAgUiError } from "../src/errors";
import { approvalIdOf, type InterruptDecisionData } from "../src/hitl";
import { DrivenClock } from "./support/drivenClock";
import { waitUntil } from "./support/runs";

/**
 * An approval the tool server was asked for in the AG-UI run (its
 * `approval.requested`, under the run's id) that the AG-UI stream does not
 * show as a `{ pending_approval }` result (the agent's framework swallowed
 * it, or the tool ran on the backend without a visible call) still becomes
 * a decision card, against the reference tool server over loopback HTTP,
 * however late it comes, in a message of its own, once; and the run's end
 * waits for none of it.
 */
let server: ToolServer;
beforeEach(async () => {
  server = await startToolServer();
});
afterEach(async () => {
  await server.close();
});

const request = (text: string) => ({ id: `u-${text}`, input: { text }, history: {} });
const sendOptions = () => ({ signal: new AbortController().signal });
const fastRetry = { maxRetries: 0 };
const args = { to: "ops@example.com", subject: "Report" };

/**
 * The agent: its first run calls send_email on the tool server under the run's id, as the run's owner; with `showResult`
 * its stream shows the call and its `{ pending_approval }` result, else only a line of text. Each later run answers from
 * the last call's result in its input.
 */
function agentOn(url: string, inputs: RunAgentInput[], { showResult = false, useTools = true } = {}) {
  const agentsClient = new ToolClient({ baseUrl: url, token: "alice-token", retry: fastRetry });
  return async function* run(input: RunAgentInput): AsyncGenerator<BaseEvent> {
    inputs.push(input);
    yield ev.runStarted();
    if (inputs.length === 1) {
      if (useTools) {
        const call = await agentsClient.invoke("send_email", args, { runId: input.runId, threadId: input.threadId });
        if (showResult) {
          yield* ev.toolCall("call-1", "send_email", args, "a1");
          yield ev.toolResult("call-1", JSON.stringify(call.status === "pending_approval" ? { pending_approval: call.approval_id } : call.result), "r1");
        }
      }
      yield* ev.message("a1-text", "I asked for it.");
    } else {
      const result = [...input.messages].reverse().find((message): message is Extract<Message, { role: "tool" }> => message.role === "tool");
      yield* ev.message(`a${inputs.length}`, `Outcome: ${result?.content}`);
    }
    yield ev.runFinished();
  };
}

/** The chat as the run's owner: the tool server shows a run's events to its owner only. */
function adapterWith(agent: { showResult?: boolean; useTools?: boolean } = {}, extra: Partial<CarbonAgUiAdapterOptions> = {}) {
  const inputs: RunAgentInput[] = [];
  const errors: CarbonAgUiError[] = [];
  const warnings: CarbonAgUiError[] = [];
  const owner = new ToolClient({ baseUrl: server.url, token: "alice-token", retry: fastRetry });
  const adapter = new CarbonAgUiAdapter({
    threadId: "thread-1",
    coalesce: false,
    run: agentOn(server.url, inputs, agent),
    toolClient: owner,
    onError: (error) => errors.push(error),
    onWarning: (warning) => warnings.push(warning),
    ...extra,
  });
  return { adapter, inputs, errors, warnings, carbon: new CarbonRecorder(), agentsClient: new ToolClient({ baseUrl: server.url, token: "alice-token", retry: fastRetry }) };
}

const cardsIn = (carbon: CarbonRecorder): InterruptDecisionData[] =>
  carbon.chunks.flatMap((chunk) => {
    const item = "complete_item" in chunk ? chunk.complete_item : undefined;
    const card = item?.response_type === "user_defined" ? (item.user_defined as InterruptDecisionData | undefined) : undefined;
    return card?.kind === "interrupt" ? [card] : [];
  });

describe("an approval requested on the tool server in the run, which the AG-UI stream does not show", () => {
  it("becomes a decision card in a message of its own after the answer, with the tool and arguments from getApproval; approved, the tool runs and the agent answers with its result", async () => {
    const { adapter, inputs, errors, warnings, carbon } = adapterWith();
    await adapter.sendMessage(request("Send the report"), sendOptions(), carbon);
    await waitUntil(() => adapter.pendingInterrupts.length === 1);
    await adapter.whenIdle();
    expect(carbon.waitingForFinal).toEqual([]);
    const [pending] = adapter.pendingInterrupts;
    const approvalId = approvalIdOf(pending!.interrupt);
    expect(approvalId).toMatch(/^apr_/);
    const cards = cardsIn(carbon);
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ message: "Allow send_email?", action: "send_email", args });
    // The answer is closed when the card comes: the card is a message of its own, with the call's step waiting.
    expect(carbon.transcript()).toMatch(/Assistant: I asked for it\.\nAssistant: \[decision card: Allow send_email\?\]/);
    expect(carbon.transcript()).toContain("send_email (success)");
    await adapter.respondToInterrupt({ type: "approve" }, carbon);
    expect(server.toolRuns("send_email")).toBe(1);
    expect(inputs).toHaveLength(2);
    const results = inputs[1]!.messages.filter((message) => message.role === "tool");
    expect(results).toHaveLength(1);
    expect(JSON.parse(results[0]!.content as string)).toMatchObject({ status: "ok", result: { sent: true, to: "ops@example.com" } });
    // The call the result answers is in the history the agent gets.
    expect(inputs[1]!.messages.some((message) => message.role === "assistant" && message.toolCalls?.some((call) => call.id === results[0]!.toolCallId))).toBe(true);
    expect(carbon.transcript()).toContain('Outcome: {"status":"ok"');
    expect(adapter.pendingInterrupts).toEqual([]);
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    adapter.dispose();
  });

  it("an approval the stream shows too gives one card", async () => {
    const { adapter, inputs, carbon, warnings, agentsClient } = adapterWith({ showResult: true });
    await adapter.sendMessage(request("Send the report"), sendOptions(), carbon);
    // The tool server's record of the run, read from its end, names it again. A later approval's card shows the record was read past it.
    await agentsClient.invoke("send_email", { ...args, subject: "Later" }, { runId: inputs[0]!.runId, threadId: "thread-1" });
    await waitUntil(() => adapter.pendingInterrupts.length === 2, 5_000);
    await adapter.whenIdle();
    expect(cardsIn(carbon).map((card) => (card.args as { subject: string }).subject)).toEqual(["Report", "Later"]);
    expect(adapter.messages.filter((message) => message.role === "tool")).toHaveLength(2);
    expect(warnings).toEqual([]);
    adapter.dispose();
  });

  it("the tool server down: the turn ends normally, and onWarning hears of it once", async () => {
    const { adapter, carbon, errors, warnings } = adapterWith({ useTools: false });
    await server.close();
    await adapter.sendMessage(request("Send the report"), sendOptions(), carbon);
    await waitUntil(() => warnings.length === 2, 10_000);
    expect(carbon.waitingForFinal).toEqual([]);
    expect(carbon.transcript()).toContain("I asked for it.");
    expect(adapter.pendingInterrupts).toEqual([]);
    expect(errors).toEqual([]);
    // Once for the tools' schemas, once for the run's approvals.
    const about = warnings.filter((warning) => warning.message.includes("approvals"));
    expect(warnings.map((warning) => warning.message)).toEqual([expect.stringContaining("listTools"), about[0]?.message]);
    expect(about[0]).toBeInstanceOf(CarbonAgUiError);
    expect((about[0]!.cause as Error).name).toBe("ToolTransportError");
    expect(JSON.stringify([about[0]!.message, String(about[0]!.cause)])).not.toContain("alice-token");
    adapter.dispose();
    // afterEach closes it.
    server = await startToolServer();
  });

  it("gives an approval asked for 400 ms after the run's end a card of its own, and two asked for 80 ms apart a card each", async () => {
    const { adapter, inputs, carbon, warnings, agentsClient } = adapterWith({ useTools: false });
    await adapter.sendMessage(request("Send the report"), sendOptions(), carbon);
    const runId = inputs[0]!.runId;
    await new Promise((resolve) => setTimeout(resolve, 400));
    await agentsClient.invoke("send_email", args, { runId, threadId: "thread-1" });
    await waitUntil(() => adapter.pendingInterrupts.length === 1, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await agentsClient.invoke("send_email", { ...args, subject: "Second" }, { runId, threadId: "thread-1" });
    await new Promise((resolve) => setTimeout(resolve, 80));
    await agentsClient.invoke("send_email", { ...args, subject: "Third" }, { runId, threadId: "thread-1" });
    await waitUntil(() => adapter.pendingInterrupts.length === 3, 5_000);
    await adapter.whenIdle();
    expect(cardsIn(carbon).map((card) => (card.args as { subject: string }).subject)).toEqual(["Report", "Second", "Third"]);
    expect(carbon.waitingForFinal).toEqual([]);
    expect(warnings).toEqual([]);
    adapter.dispose();
  });

  it("ends a run as fast as without a tool server: its end waits for no approval", async () => {
    const clock = new DrivenClock();
    // A tool server that is slow to say anything: the run must not wait on it.
    const silent: ToolServerApprovals = { decide: () => new Promise(() => undefined), getApproval: () => new Promise(() => undefined), listTools: () => new Promise(() => undefined), events$: () => NEVER };
    const adapter = new CarbonAgUiAdapter({ scheduler: clock, coalesce: false, run: () => ev.run(ev.message("m1", "Done.")), toolClient: silent });
    const carbon = new CarbonRecorder();
    await clock.settle(adapter.sendMessage(request("Hi"), sendOptions(), carbon));
    expect(carbon.transcript()).toBe("Assistant: Done.");
    // Handing the chunks to Carbon takes a few frames of the clock; the old window waited 300 ms for the first event.
    expect(clock.now()).toBeLessThan(50);
    adapter.dispose();
  });
});
