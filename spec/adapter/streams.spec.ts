/**
 * One stream, several runs (AG-UI 1.0): the turn is over at its run's end,
 * and whatever the stream brings later is a turn of its own, however long
 * it takes to come; only the protocol (the stream's end) or the person (the
 * next message, the stop button, a restart) ends the wait. Virtual time:
 * one marble character is one frame of 10 ms.
 */
import type { BaseEvent } from "@ag-ui/core";
import { ev } from "../support/builders";
import { onVirtualClock } from "../support/virtualClock";

const EVENTS: Record<string, BaseEvent> = {
  s: ev.runStarted(),
  f: ev.runFinished(),
  M: ev.textStart("m"),
  a: ev.text("m", "First."),
  e: ev.textEnd("m"),
  N: ev.textStart("n"),
  x: ev.text("n", "Second"),
  y: ev.text("n", " run."),
  n: ev.textEnd("n"),
  O: ev.textStart("o"),
  z: ev.text("o", "Third run."),
  o: ev.textEnd("o"),
  E: ev.runError("The agent failed."),
  X: ev.text("ghost", "stray"),
  P: ev.textStart("p"),
  q: ev.text("p", "Answer to the next message."),
  p: ev.textEnd("p"),
};

/** 1.5 s of silence: 150 frames. */
const PAUSE = "-".repeat(150);

describe("a stream that carries several runs", () => {
  it("ends the turn at its run's end, and shows a run that starts 1.5 s later as an answer of its own, kept in the history", async () => {
    // frame:                 0123456
    const { adapter, carbon, advanceTo, subscriptions, send } = onVirtualClock([`s-Mae-f${PAUSE}s-Nxyn-f|`], EVENTS);
    let resolvedAt: number | undefined;
    const sent = send("Hi").then(() => (resolvedAt = now()));
    const now = () => Math.round((adapter as unknown as { options: { scheduler: { now(): number } } }).options.scheduler.now() / 10);
    await advanceTo(20);
    await sent;
    // Carbon's queue goes on at the first run's end: the wait for a later run is no part of the turn.
    expect(resolvedAt).toBeLessThan(20);
    expect(carbon.transcript()).toBe("Assistant: First.");
    await advanceTo(200);
    await adapter.whenIdle();
    expect(carbon.transcript()).toBe(["Assistant: First.", "Assistant: Second run."].join("\n"));
    expect(carbon.waitingForFinal).toEqual([]);
    expect(adapter.messages.map((message) => message.content)).toEqual(["Hi", "First.", "Second run."]);
    expect(subscriptions(0)).toEqual([[0, 165]]);
  });

  it("lets the stream go when the person sends the next message: the run under way plays to its end first, and no further run starts", async () => {
    // frame:                               0         1         2         3
    //                                      0123456789012345678901234567890123
    const { adapter, carbon, inputs, advanceTo, subscriptions, send } = onVirtualClock(["s-Mae-f---s-Nx-----yn-f----s-Ozo-f|", "s-Pqp-f|"], EVENTS);
    const first = send("Hi");
    await advanceTo(14); // the stream's second run under way: "Second" shown
    await first;
    const next = send("Next");
    // Frame by frame, so the turns' promises settle between frames.
    for (let frame = 15; frame <= 26; frame++) await advanceTo(frame);
    // Let go of once its second run was over (frame 22) and shown, before the third began (27).
    const [[, unsubscribed]] = subscriptions(0) as [[number, number]];
    expect(unsubscribed).toBeGreaterThanOrEqual(22);
    expect(unsubscribed).toBeLessThan(27);
    await advanceTo(60);
    await next;
    await adapter.whenIdle();
    expect(carbon.transcript()).toBe(["Assistant: First.", "Assistant: Second run.", "Assistant: Answer to the next message."].join("\n"));
    expect(inputs[1]!.messages.map((message) => message.content)).toEqual(["Hi", "First.", "Second run.", "Next"]);
  });

  it("stops what the stream still brings with Carbon's stop button: the run under way shows 'Response stopped', and none after it plays", async () => {
    const { adapter, carbon, advanceTo, subscriptions, send } = onVirtualClock(["s-Mae-f---s-Nx-----yn-f----s-Ozo-f|"], EVENTS);
    await Promise.all([send("Hi"), advanceTo(14)]);
    await carbon.pressStop();
    await advanceTo(60);
    await adapter.whenIdle();
    expect(carbon.transcript()).toBe(["Assistant: First.", "Assistant: Second", "  (Response stopped)"].join("\n"));
    expect(subscriptions(0)).toEqual([[0, 14]]);
    expect(carbon.waitingForFinal).toEqual([]);
  });

  it("lets the stream go at once on reset(): nothing it brings reaches the new conversation", async () => {
    const { adapter, carbon, advanceTo, subscriptions, send } = onVirtualClock([`s-Mae-f${PAUSE}s-Nxyn-f|`], EVENTS);
    await Promise.all([send("Hi"), advanceTo(20)]);
    adapter.reset();
    await advanceTo(200);
    await adapter.whenIdle();
    expect(subscriptions(0)).toEqual([[0, 20]]);
    expect(adapter.messages).toEqual([]);
    expect(carbon.transcript()).toBe("Assistant: First.");
  });

  it("shows a run after a RUN_ERROR of the same stream (the agent's retry) as an answer of its own", async () => {
    const errors: unknown[] = [];
    const { adapter, carbon, advanceTo, send } = onVirtualClock(["s-Ma-E---s-Nxyn-f|"], EVENTS, { onError: (error) => errors.push(error) });
    await Promise.all([send("Hi"), advanceTo(40)]);
    await adapter.whenIdle();
    expect(carbon.transcript()).toBe(["Assistant: First.", "[error: This answer is incomplete. The agent failed.]", "Assistant: Second run."].join("\n"));
    expect(errors).toHaveLength(1);
  });

  it("lets the stream go once a run broke the protocol: what follows cannot be trusted to begin a run", async () => {
    const errors: unknown[] = [];
    const { adapter, carbon, advanceTo, subscriptions, send } = onVirtualClock(["X-s-Mae-f---s-Nxyn-f|"], EVENTS, { onError: (error) => errors.push(error), onInvalidEvent: () => undefined });
    await Promise.all([send("Hi"), advanceTo(40)]);
    await adapter.whenIdle();
    expect(carbon.transcript()).toBe("Assistant: [error: The agent sent an answer this chat could not follow.]");
    expect(subscriptions(0)).toEqual([[0, 0]]);
    expect(errors).toHaveLength(1);
  });
});
