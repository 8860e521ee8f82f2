/**
 * Races between a turn's runs and what can end or follow them: Carbon's stop
 * button (its event bus), Carbon's signal, a restart or `reset()`, and a new
 * message, at each point of a resume and of a frontend-tool round.
 *
 * Everything runs on a virtual clock: each run plays a cold marble (one
 * character is one frame), the adapter's scheduler is the same clock, and
 * `advanceTo(frame)` moves it, letting the adapter's promises settle between
 * frames. Frames are absolute, so the marbles of one scenario line up.
 */
import type { BaseEvent, Interrupt } from "@ag-ui/core";
import { EventType } from "@ag-ui/core";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import type { CarbonAgUiAdapter, CarbonAgUiAdapterOptions } from "../src/adapter";
import { CancellationReason } from "../src/carbon";
import { AgUiInterruptError } from "../src/errors";
import { ev } from "./support/builders";
import { onVirtualClock } from "./support/virtualClock";


const approval = (id: string): Interrupt => ({ id, reason: "approval", message: "Delete 3 old files?" });
/** The events a marble character stands for; text messages are `m` in the first run, `n` in the second, `o` in the third. */
const EVENTS: Record<string, BaseEvent> = {
  s: ev.runStarted(),
  f: ev.runFinished(),
  i: ev.runFinished({ outcome: { type: "interrupt", interrupts: [approval("i1")] } }),
  j: ev.runFinished({ outcome: { type: "interrupt", interrupts: [approval("i2")] } }),
  // A call of the frontend tool `locate`, and the run's end waiting for the browser to answer it.
  L: { type: EventType.TOOL_CALL_START, toolCallId: "t1", toolCallName: "locate", parentMessageId: "a-t1" } as BaseEvent,
  A: ev.toolArgs("t1", '{"precise":true}'),
  E: ev.toolEnd("t1"),
  p: ev.runFinished({ outcome: { type: "success", pendingToolCallIds: ["t1"] } }),
  M: ev.textStart("m"),
  a: ev.text("m", "Deleting"),
  b: ev.text("m", " the old"),
  c: ev.text("m", " files."),
  e: ev.textEnd("m"),
  N: ev.textStart("n"),
  x: ev.text("n", "You are"),
  y: ev.text("n", " in Oslo."),
  n: ev.textEnd("n"),
  O: ev.textStart("o"),
  z: ev.text("o", "Done."),
  o: ev.textEnd("o"),
};

const history = (adapter: CarbonAgUiAdapter) =>
  adapter.messages.map((message) => `${message.role}${typeof message.content === "string" && message.content !== "" ? `: ${message.content}` : ""}`);

describe("CarbonAgUiAdapter turns: a resume", () => {
  // frame:        0123456789012345678901
  const asks = "s-i|"; // the user's run ends at an interrupt (frame 2)
  const resume = "s-Ma-b-c-e-f|"; // the resume, from its start

  it("stops where it is when Carbon's stop button is pressed: 'Response stopped', the run let go, the card's promise resolved, the next message answered", async () => {
    const { adapter, carbon, advanceTo, subscriptions, send } = onVirtualClock([asks, resume, "s-Oz-o-f|"], EVENTS);
    await Promise.all([send("Delete my old files"), advanceTo(4)]);
    const resumed = adapter.respondToInterrupt({ type: "approve" }, carbon); // subscribed at 4
    await advanceTo(10); // "Deleting the old" shown
    await carbon.pressStop();
    await advanceTo(20);
    await expect(resumed).resolves.toBeUndefined();
    expect(subscriptions(1)).toEqual([[4, 10]]);
    expect(carbon.transcript()).toBe(["Assistant: [decision card: Delete 3 old files?]", "Assistant: Deleting the old", "  (Response stopped)"].join("\n"));
    expect(carbon.waitingForFinal).toEqual([]);
    const next = send("Thanks");
    await advanceTo(40);
    await next;
    expect(carbon.transcript()).toMatch(/Done\.$/);
    expect(adapter.pendingInterrupts).toEqual([]);
  });

  it("stopped before its first event, shows nothing and puts the decision back for the card to send again", async () => {
    const { adapter, carbon, advanceTo, subscriptions, send } = onVirtualClock([asks, "---s-Ma-e-f|"], EVENTS);
    await Promise.all([send("Delete my old files"), advanceTo(4)]);
    const resumed = adapter.respondToInterrupt({ type: "approve" }, carbon).catch((error: unknown) => error);
    await advanceTo(5);
    await carbon.pressStop();
    await advanceTo(20);
    expect(await resumed).toEqual(new AgUiInterruptError("Stopped before the agent took the decision; it can be sent again"));
    expect(subscriptions(1)).toEqual([[4, 5]]);
    expect(carbon.chunks.filter((chunk) => "final_response" in chunk)).toHaveLength(1);
    expect(adapter.pendingInterrupts.map((entry) => [entry.interrupt.id, entry.decision?.type])).toEqual([["i1", "approve"]]);
  });

  it("stops with the host's signal too, and with a signal already aborted never starts", async () => {
    const { adapter, carbon, advanceTo, subscriptions, send } = onVirtualClock([asks, resume], EVENTS);
    await Promise.all([send("Delete my old files"), advanceTo(4)]);
    const aborted = new AbortController();
    aborted.abort(CancellationReason.STOP_STREAMING);
    await expect(adapter.respondToInterrupt({ type: "approve" }, carbon, { signal: aborted.signal })).rejects.toBeInstanceOf(AgUiInterruptError);
    expect(subscriptions(1)).toEqual([]);
    expect(carbon.chunks).toHaveLength(2); // the card's turn alone: no empty answer for the resume that never started
    const host = new AbortController();
    const resumed = adapter.respondToInterrupt({ type: "approve" }, carbon, { signal: host.signal });
    await advanceTo(10);
    host.abort(CancellationReason.STOP_STREAMING);
    await advanceTo(20);
    await resumed;
    expect(subscriptions(1)).toEqual([[4, 10]]);
    expect(carbon.transcript()).toMatch(/Deleting the old\n {2}\(Response stopped\)$/);
  });

  it.each([
    ["Carbon's restart", (carbon: CarbonRecorder) => carbon.restart()],
    ["reset()", (_carbon: CarbonRecorder, adapter: CarbonAgUiAdapter) => adapter.reset()],
  ])("ended by %s, writes nothing into the new thread, even a new interrupt at its end; the next message sends no resume", async (_how, restart) => {
    // The stale resume would go on to ask a new question (j) at frame 16.
    const { adapter, carbon, inputs, advanceTo, subscriptions, send } = onVirtualClock([asks, "s-Ma-b-c-e-j|", "s-Oz-o-f|"], EVENTS);
    await Promise.all([send("Delete my old files"), advanceTo(4)]);
    const resumed = adapter.respondToInterrupt({ type: "approve" }, carbon);
    await advanceTo(8);
    const staleThread = adapter.threadId;
    await restart(carbon, adapter);
    await advanceTo(20);
    await expect(resumed).resolves.toBeUndefined();
    expect(subscriptions(1)).toEqual([[4, 8]]);
    expect(adapter.threadId).not.toBe(staleThread);
    expect(adapter.messages).toEqual([]);
    expect(adapter.pendingInterrupts).toEqual([]);
    expect(carbon.waitingForFinal).toEqual([]);
    const next = send("Hello again");
    await advanceTo(40);
    await next;
    expect(inputs[2]).toMatchObject({ threadId: adapter.threadId, messages: [{ role: "user", content: "Hello again" }] });
    expect(inputs[2]?.resume).toBeUndefined();
  });

  it("makes a message sent while it streams wait for it; that message's run then has the resume's answer before it", async () => {
    const { adapter, carbon, inputs, advanceTo, subscriptions, send } = onVirtualClock([asks, resume, "s-Oz-o-f|"], EVENTS);
    await Promise.all([send("Delete my old files"), advanceTo(4)]);
    const resumed = adapter.respondToInterrupt({ type: "approve" }, carbon);
    await advanceTo(8);
    const next = send("And the logs?"); // the resume streams until 16
    await advanceTo(40);
    await Promise.all([resumed, next]);
    expect(subscriptions(1)).toEqual([[4, 16]]);
    expect(subscriptions(2)).toEqual([[16, 24]]);
    expect(history(adapter)).toEqual(["user: Delete my old files", "assistant: Deleting the old files.", "user: And the logs?", "assistant: Done."]);
    expect(inputs[2]?.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(inputs[2]?.resume).toBeUndefined();
  });
});

describe("CarbonAgUiAdapter turns: a frontend-tool round", () => {
  // frame:         0123456789012345
  const calls = "s-LAE-p|"; // ends waiting on `locate` at frame 6
  const followUp = "s-Nx-y-n-f|"; // the follow-up, from its start

  /** A `locate` handler that answers when the test says so. */
  function gatedHandler() {
    let answer: (value: unknown) => void = () => undefined;
    const called: unknown[] = [];
    const handler = (args: unknown) => {
      called.push(args);
      return new Promise((resolve) => (answer = resolve));
    };
    return { handler, called, answer: (value: unknown) => answer(value) };
  }
  const locate = (handler: (args: unknown) => unknown): Partial<CarbonAgUiAdapterOptions> => ({
    tools: [{ name: "locate", description: "The user's position", parameters: { type: "object" }, handler }],
  });

  const stops = [
    ["Carbon's stop button", async ({ carbon }: { carbon: CarbonRecorder; controller: AbortController }) => carbon.pressStop()],
    ["Carbon's signal", async ({ controller }: { carbon: CarbonRecorder; controller: AbortController }) => controller.abort(CancellationReason.STOP_STREAMING)],
  ] as const;

  it.each(stops)("stopped by %s during the first run, runs no handler and no follow-up", async (_how, stop) => {
    const tool = gatedHandler();
    const harness = onVirtualClock(["s-LA-E-p|", followUp], EVENTS, locate(tool.handler));
    const sent = harness.send("Where am I?");
    await harness.advanceTo(3);
    await stop(harness);
    await harness.advanceTo(20);
    await sent;
    expect(harness.subscriptions(0)).toEqual([[0, 3]]);
    expect(harness.subscriptions(1)).toEqual([]);
    expect(tool.called).toEqual([]);
    expect(harness.carbon.waitingForFinal).toEqual([]);
  });

  it.each(stops)("stopped by %s while the handler runs, keeps its result in the history but starts no follow-up and shows no empty answer", async (_how, stop) => {
    const tool = gatedHandler();
    const harness = onVirtualClock([calls, followUp], EVENTS, locate(tool.handler));
    const sent = harness.send("Where am I?");
    await harness.advanceTo(8);
    expect(tool.called).toEqual([{ precise: true }]);
    await stop(harness);
    tool.answer({ city: "Oslo" });
    await harness.advanceTo(30);
    await sent;
    expect(harness.subscriptions(1)).toEqual([]);
    expect(harness.carbon.transcript()).toBe("Assistant:   How did I get this answer? locate (success)");
    expect(harness.carbon.chunks.filter((chunk) => "final_response" in chunk)).toHaveLength(1);
    expect(history(harness.adapter)).toEqual(["user: Where am I?", "assistant", 'tool: {"city":"Oslo"}']);
  });

  it.each(stops)("stopped by %s during the follow-up run, shows 'Response stopped' there", async (_how, stop) => {
    const tool = gatedHandler();
    const harness = onVirtualClock([calls, followUp], EVENTS, locate(tool.handler));
    const sent = harness.send("Where am I?");
    await harness.advanceTo(8);
    tool.answer({ city: "Oslo" }); // the follow-up starts at 8
    await harness.advanceTo(12);
    await stop(harness);
    await harness.advanceTo(30);
    await sent;
    expect(harness.subscriptions(1)).toEqual([[8, 12]]);
    expect(harness.carbon.transcript()).toMatch(/Assistant: You are\n {2}\(Response stopped\)\n {2}How did I get this answer\? locate \(success\)$/);
    expect(harness.carbon.waitingForFinal).toEqual([]);
  });

  it.each([
    ["while the handler runs", 8, () => undefined],
    ["during the follow-up run", 12, (answer: (value: unknown) => void) => answer({ city: "Oslo" })],
  ])("ended by a restart %s, writes nothing into the new thread", async (_when, at, beforeRestart) => {
    const tool = gatedHandler();
    const harness = onVirtualClock([calls, followUp], EVENTS, locate(tool.handler));
    const sent = harness.send("Where am I?");
    await harness.advanceTo(8);
    beforeRestart(tool.answer);
    await harness.advanceTo(at);
    await harness.carbon.restart(() => harness.controller.abort(CancellationReason.CONVERSATION_RESTARTED));
    tool.answer({ city: "Oslo" });
    await harness.advanceTo(30);
    await sent;
    expect(harness.adapter.messages).toEqual([]);
    expect(harness.carbon.waitingForFinal).toEqual([]);
    expect(harness.subscriptions(1)).toEqual(at === 8 ? [] : [[8, 12]]);
  });

  it("makes a second message sent during the round wait for the round to end", async () => {
    const tool = gatedHandler();
    const harness = onVirtualClock([calls, followUp, "s-Oz-o-f|"], EVENTS, locate(tool.handler));
    const first = harness.send("Where am I?");
    await harness.advanceTo(8);
    const second = harness.send("Thanks", new AbortController().signal);
    await harness.advanceTo(10);
    tool.answer({ city: "Oslo" }); // the follow-up starts at 10 and ends at 20
    await harness.advanceTo(40);
    await Promise.all([first, second]);
    expect(harness.subscriptions(1)).toEqual([[10, 20]]);
    expect(harness.subscriptions(2)).toEqual([[20, 28]]);
    expect(history(harness.adapter)).toEqual(["user: Where am I?", "assistant", 'tool: {"city":"Oslo"}', "assistant: You are in Oslo.", "user: Thanks", "assistant: Done."]);
  });

  it("a resume's own frontend-tool follow-up stops with the stop button too", async () => {
    const tool = gatedHandler();
    const harness = onVirtualClock(["s-i|", calls, followUp], EVENTS, locate(tool.handler));
    await Promise.all([harness.send("Find me"), harness.advanceTo(4)]);
    const resumed = harness.adapter.respondToInterrupt({ type: "approve" }, harness.carbon); // the resume runs 4–11
    await harness.advanceTo(12);
    tool.answer({ city: "Oslo" }); // its follow-up starts at 12
    await harness.advanceTo(16);
    await harness.carbon.pressStop();
    await harness.advanceTo(30);
    await resumed;
    expect(harness.subscriptions(2)).toEqual([[12, 16]]);
    expect(harness.carbon.transcript()).toMatch(/You are\n {2}\(Response stopped\)/);
  });
});
