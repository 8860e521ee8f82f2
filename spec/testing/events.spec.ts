import { EventType, type AGUIEvent } from "@ag-ui/core";
import { EventSchemas } from "@ag-ui/core/schemas";
import { ev, eventMarble } from "../../src/testing/events";

/** One call of every builder, as a user would write them. */
const built: AGUIEvent[] = [
  ev.runStarted(),
  ev.runFinished({ result: 42 }),
  ev.runError("boom", "E1"),
  ev.interrupt({ id: "i1", reason: "approval", toolCallId: "t1" }),
  ...ev.message("m1", "Hel", "lo"),
  ev.textChunk({ messageId: "m2", delta: "x" }),
  ...ev.toolCall("t1", "search", { q: "x" }, "m1"),
  ev.toolResult("t1", "3 hits"),
  ev.toolChunk({ toolCallId: "t2", toolCallName: "fetch", delta: "{}" }),
  ev.stateSnapshot({ a: 1 }),
  ev.stateDelta({ op: "replace", path: "/a", value: 2 }),
  ev.messagesSnapshot({ id: "u1", role: "user", content: "Hi" }),
  ev.activitySnapshot("act", "progress", { percent: 1 }, false),
  ev.activityDelta("act", "progress", { op: "replace", path: "/percent", value: 2 }),
  ev.raw({ chunk: 1 }, "openai"),
  ev.custom("on_interrupt", {}),
  ev.carbonItem({ response_type: "text", text: "Hi" }),
  ev.carbonItems({ response_type: "image", source: "https://example.test/a.png" }),
  ev.stepStarted("plan"),
  ev.stepFinished("plan"),
  ev.reasoningStart("r"),
  ev.reasoningMessageStart("r1"),
  ev.reasoning("r1", "hmm"),
  ev.reasoningMessageEnd("r1"),
  ev.reasoningChunk({ messageId: "r2", delta: "x" }),
  ev.reasoningEnd("r"),
  ev.reasoningEncryptedValue("message", "r1", "enc"),
  ev.subagentStarted("s1", "researcher"),
  ev.subagentFinished("s1"),
  ev.subagentError("s2", "timed out"),
];

describe("testing kit: event builders", () => {
  it("build events that pass their AG-UI 1.0 schema", () => {
    const invalid = built.filter((event) => !EventSchemas.safeParse(event).success);
    expect(invalid).toEqual([]);
  });

  it("cover all 31 AG-UI 1.0 event types", () => {
    expect(new Set(built.map((event) => event.type))).toEqual(new Set(Object.values(EventType)));
  });

  it("wrap a body in RUN_STARTED / RUN_FINISHED, unless it already ends the run", () => {
    expect(ev.run(ev.message("m1", "Hi")).map((event) => event.type)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
    expect(ev.run(ev.runError("boom")).map((event) => event.type)).toEqual(["RUN_STARTED", "RUN_ERROR"]);
  });

  it("make a one-event-per-frame marble from a list", () => {
    const { marble, values } = eventMarble(ev.run());
    expect(marble).toBe("ab|");
    expect(values).toEqual({ a: ev.runStarted(), b: ev.runFinished() });
  });
});
