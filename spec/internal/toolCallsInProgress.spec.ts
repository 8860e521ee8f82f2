import type { PipelineElement } from "../../src/instructions";
import { TextBuffer } from "../../src/internal/textBuffer";
import { ToolCallsInProgress } from "../../src/internal/toolCallsInProgress";

const recorded = (messageId: string, id: string, name: string, args: string) => ({
  kind: "history.message",
  message: { id: messageId, role: "assistant", toolCalls: [{ id, type: "function", function: { name, arguments: args } }] },
});

function watched() {
  const sent: PipelineElement[] = [];
  return { calls: new ToolCallsInProgress((element) => sent.push(element)), sent };
}

describe("ToolCallsInProgress", () => {
  it("records a call in the history as it starts and again with its arguments as it ends", () => {
    const { calls, sent } = watched();
    expect(calls.reopen("t1")).toBe(false);
    calls.start("t1", "search", "a1", "tool:t1");
    expect(calls.isOpen("t1")).toBe(true);
    calls.appendArguments("t1", '{"q":');
    calls.appendArguments("t1", '"rxjs"}');
    calls.appendArguments("unknown", "ignored");
    calls.end("t1", calls.get("t1")!);
    expect(calls.isOpen("t1")).toBe(false);
    expect(sent).toEqual([recorded("a1", "t1", "search", ""), recorded("a1", "t1", "search", '{"q":"rxjs"}')]);
    expect(calls.reopen("t1")).toBe(true);
    expect(calls.isOpen("t1")).toBe(true);
  });

  it("keeps the calls cut short with their arguments so far, but none with no arguments", () => {
    const { calls, sent } = watched();
    calls.start("t1", "search", "a1", "tool:t1");
    calls.start("t2", "fetch", "t2", "tool:t2");
    calls.appendArguments("t1", '{"q":');
    sent.length = 0;
    calls.keepCut();
    calls.keepCut();
    expect(sent).toEqual([recorded("a1", "t1", "search", '{"q":')]);
    expect([calls.isOpen("t1"), calls.isOpen("t2")]).toEqual([false, false]);
  });

  it("tells the calls still unanswered, and what became of the others for run.toolCalls", () => {
    const { calls } = watched();
    calls.start("t1", "search", "a1", "tool:t1");
    calls.start("t2", "fetch", "a1", "tool:t2");
    calls.add("t3", { name: "read", messageId: "a2", arguments: TextBuffer.of("{}"), step: "tool:t3", status: "answered" });
    expect(calls.answer("t2")?.status).toBe("answered");
    expect(calls.answer("unknown")).toBeUndefined();
    expect(calls.unanswered().map(([toolCallId]) => toolCallId)).toEqual(["t1"]);
    expect(calls.ofRun()).toEqual([
      { toolCallId: "t2", name: "fetch", arguments: "", status: "answered" },
      { toolCallId: "t3", name: "read", arguments: "{}", status: "answered" },
    ]);
    calls.get("t1")!.status = "failed";
    expect(calls.unanswered()).toEqual([]);
    expect(calls.ofRun().map((call) => call.toolCallId)).toEqual(["t1", "t2", "t3"]);
  });
});
