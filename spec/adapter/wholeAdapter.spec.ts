/**
 * The adapter as a whole, in virtual time: what the person asks for as a
 * marble of intents, the agent's runs as marbles, and what comes out as
 * expected values: Carbon's chunks (`p` partial, `c` complete, `f` final
 * response) over the same absolute frames, the history the next run sends,
 * and the thread's log as the store holds it.
 */
import { EventType, type BaseEvent, type Interrupt } from "@ag-ui/core";
import { firstValueFrom, Observable } from "rxjs";
import type { ToolServerApprovals } from "../../src/adapter/approvals/toolServer";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter } from "../../src/adapter";
import { ev } from "../support/builders";
import { wholeAdapter } from "../support/adapterMarbles";
import { request } from "../support/virtualClock";

const approval: Interrupt = { id: "i1", reason: "approval", message: "Send it?" };
/** The events a marble character stands for. */
const EVENTS: Record<string, BaseEvent> = {
  s: ev.runStarted(),
  f: ev.runFinished(),
  i: ev.runFinished({ outcome: { type: "interrupt", interrupts: [approval] } }),
  M: ev.textStart("m"),
  a: ev.text("m", "Mild,"),
  b: ev.text("m", " 9 °C."),
  e: ev.textEnd("m"),
  N: ev.textStart("n"),
  x: ev.text("n", "Sent."),
  n: ev.textEnd("n"),
  O: ev.textStart("o"),
  y: ev.text("o", "Cold, 2 °C."),
  o: ev.textEnd("o"),
  A: { type: EventType.ACTIVITY_SNAPSHOT, messageId: "s1", activityType: "a2ui-surface", content: { a2ui_operations: [{ createSurface: { surfaceId: "form", catalogId: "basic" } }] } } as BaseEvent,
};
const say = (text: string) => (adapter: CarbonAgUiAdapter, carbon: CarbonRecorder) => adapter.sendMessage(request(text), { signal: new AbortController().signal }, carbon);

describe("the adapter as a whole, in virtual time", () => {
  it("a message: its answer streams, ends with one final response, joins the history and the log", async () => {
    const run = wholeAdapter(["s-Ma-b-e-f|"], EVENTS);
    run.intents("m", { m: (adapter) => say("Weather?")(adapter, run.carbon) });
    await run.settle(20);
    run.expectChunks("---p-p-c-f");
    expect(run.history()).toEqual(["user: Weather?", "assistant: Mild, 9 °C."]);
    expect(await run.savedLog()).toEqual(["act message", "run finished"]);
  });

  it("a resume: the card's answer is an act, the resume a run that answers it, streaming its own response", async () => {
    const run = wholeAdapter(["s-i|", "s-Nx-n-f|"], EVENTS);
    run.intents("m---d", { m: (adapter) => say("Send the forecast")(adapter, run.carbon), d: (adapter) => adapter.respondToInterrupt({ type: "approve" }, run.carbon) });
    await run.settle(20);
    run.expectChunks("--(cf)-p-c-f");
    expect(run.inputs[1]!.resume).toEqual([{ interruptId: "i1", status: "resolved", payload: { approved: true } }]);
    expect(run.adapter.interruptAnswer("i1")).toBe("approve");
    expect(await run.savedLog()).toEqual(["act message", "run finished", "act decision", "run finished answering i1=approve"]);
  });

  it("a stop: the text so far shows stopped, one final response, the run let go, the log says stopped", async () => {
    const run = wholeAdapter(["s-Ma-b-e-f|"], EVENTS);
    run.intents("m-----x", { m: (adapter) => say("Weather?")(adapter, run.carbon), x: () => run.carbon.pressStop() });
    await run.settle(20);
    run.expectChunks("---p-p(cf)");
    expect(run.subscriptions(0)).toEqual([[0, 6]]);
    expect(run.carbon.transcript()).toBe("Assistant: Mild, 9 °C.\n  (Response stopped)");
    expect(await run.savedLog()).toEqual(["act message", "run stopped"]);
  });

  it("a stop before the run's first event: nothing shows, Carbon waits on nothing, the log says stopped, and the next message goes on", async () => {
    const run = wholeAdapter(["----s-Ma-f|", "s-Mb-e-f|"], EVENTS);
    run.intents("m-x-n", { m: (adapter) => say("Weather?")(adapter, run.carbon), x: () => run.carbon.pressStop(), n: (adapter) => say("And now?")(adapter, run.carbon) });
    await run.settle(20);
    expect(run.subscriptions(0)).toEqual([[0, 2]]);
    expect(run.carbon.waitingForFinal).toEqual([]);
    expect(run.history()).toEqual(["user: Weather?", "user: And now?", "assistant:  9 °C."]);
    expect(await run.savedLog()).toEqual(["act message", "run stopped", "act message", "run finished"]);
  });

  it("a reset: what plays ends, the new thread starts empty, the old one keeps what it had", async () => {
    const run = wholeAdapter(["s-Ma-b-e-f|"], EVENTS);
    run.intents("m-----r", { m: (adapter) => say("Weather?")(adapter, run.carbon), r: (adapter) => adapter.reset() });
    await run.settle(20);
    run.expectChunks("---p-p(cf)");
    expect(run.history()).toEqual([]);
    expect(run.adapter.threadId).not.toBe("thread-1");
  });

  it("a surface action: an act, then its run, a response of its own within the latest answer", async () => {
    const run = wholeAdapter(["s-A-f|", "s-Nx-n-f|"], EVENTS);
    run.intents("m-----a", {
      m: (adapter) => say("Book a room")(adapter, run.carbon),
      a: (adapter) => adapter.sendSurfaceAction({ name: "book", surfaceId: "form", sourceComponentId: "b", timestamp: "2026-12-01T10:00:00.000Z", context: {} }, run.carbon),
    });
    await run.settle(20);
    expect(run.inputs[1]!.forwardedProps).toMatchObject({ a2uiAction: { userAction: { name: "book" } } });
    expect(await run.savedLog()).toEqual(["act message", "run finished", "act surfaceAction", "run finished"]);
    expect(await firstValueFrom(run.adapter.answerVersions$)).toMatchObject({ requestId: "u-Book a room", count: 1 });
  });

  it("regenerate and switch: the new answer is a branch of the log where the old one was, in the chat and the history; switching back moves the branch", async () => {
    const run = wholeAdapter(["s-Ma-b-e-f|", "s-Oy-o-f|"], EVENTS);
    run.intents("m------------g", { m: (adapter) => say("Weather?")(adapter, run.carbon), g: (adapter) => adapter.regenerate(run.carbon) });
    await run.settle(30);
    run.expectChunks("---p-p-c-f------p-c-f");
    expect(run.carbon.transcript()).toBe("Assistant: Cold, 2 °C.");
    expect(run.history()).toEqual(["user: Weather?", "assistant: Cold, 2 °C."]);
    await run.adapter.switchVersion(0, run.carbon);
    expect(run.history()).toEqual(["user: Weather?", "assistant: Mild, 9 °C."]);
    expect(await firstValueFrom(run.adapter.answerVersions$)).toMatchObject({ index: 0, count: 2 });
    expect(await run.savedLog()).toEqual(["act message", "run finished", "run finished", "act switch"]);
  });

  it("an edit and a branch switch: the edited question a sibling in the log, its answer where the old one was; switching back moves the branch", async () => {
    const run = wholeAdapter(["s-Ma-b-e-f|", "s-Oy-o-f|"], EVENTS, { editQuestions: true });
    run.intents("m------------e", { m: (adapter) => say("Weather?")(adapter, run.carbon), e: (adapter) => adapter.editQuestion("u-Weather?", "Weather in Oslo?", run.carbon) });
    await run.settle(30);
    run.expectChunks("---p-p-c-f------p-c-f");
    expect(run.carbon.transcript()).toBe("You: Weather in Oslo?\nAssistant: Cold, 2 °C.");
    expect(run.history()).toEqual(["user: Weather in Oslo?", "assistant: Cold, 2 °C."]);
    const [edited] = await firstValueFrom(run.adapter.questionVersions$);
    await run.adapter.switchQuestion(0, edited!.requestId, run.carbon);
    expect(run.history()).toEqual(["user: Weather?", "assistant: Mild, 9 °C."]);
    expect(await firstValueFrom(run.adapter.questionVersions$)).toMatchObject([{ requestId: "u-Weather?", index: 0, count: 2 }]);
    expect(await run.savedLog()).toEqual(["act message", "run finished", "act message", "run finished", "act switch"]);
  });

  it("a late card: an approval the tool server reports after the run's end is a card in a response of its own, its call in the history and the log", async () => {
    let approvalAt: (() => void) | undefined;
    const toolClient: ToolServerApprovals = {
      decide: async () => ({ status: "ok", result: "sent" }),
      getApproval: async () => ({ status: "pending", run_id: "tool-run", tool: "send_email", arguments: { to: "team" } }),
      listTools: async () => [],
      events$: () => new Observable((subscriber) => void (approvalAt = () => subscriber.next({ event: "approval.requested", data: { approval_id: "apr_1" } }))),
    };
    const run = wholeAdapter(["s-Ma-b-e-f|"], EVENTS, { toolClient });
    run.intents("m", { m: (adapter) => say("Weather?")(adapter, run.carbon) });
    await run.settle(12);
    approvalAt!();
    await run.settle(14);
    run.expectChunks("---p-p-c-f--(pppcf)");
    expect(run.adapter.pendingInterrupts.map((entry) => entry.interrupt.id)).toEqual(["approval-apr_1"]);
    expect(run.history()).toEqual(["user: Weather?", "assistant: Mild, 9 °C.", "assistant", 'tool: {"pending_approval":"apr_1"}']);
    expect(await run.savedLog()).toEqual(["act message", "run finished", "run finished"]);
  });

  it("a reload: another adapter on the same store shows each response as it was shown, and goes on from the same history", async () => {
    const run = wholeAdapter(["s-Ma-b-e-f|"], EVENTS);
    run.intents("m", { m: (adapter) => say("Weather?")(adapter, run.carbon) });
    await run.settle(20);
    await run.adapter.saveNow();
    const again = new CarbonAgUiAdapter({ threadId: "thread-1", run: () => [], answerVersions: true, persistence: { store: run.store, channel: false } });
    const restored = (await again.loadHistory()).flatMap(({ message }) => ("output" in message ? [message.output.generic] : []));
    const live = run.carbon.chunks.flatMap((chunk) => ("final_response" in chunk ? [chunk.final_response.output.generic] : []));
    expect(restored).toEqual(live);
    expect(again.messages).toEqual(run.adapter.messages);
  });
});
