import { decisionWaitingForOthers, initialCardState, isArmed, nextCardState, type DecisionCardEvent, type DecisionCardState, type SeenInterrupt } from "../../src/renderers/decisionCardState";

const alone: SeenInterrupt = { othersOpen: false };
const gone = undefined;

/** The state after each `[event, pending]` in turn, from `state`. */
const after = (state: DecisionCardState, ...steps: [DecisionCardEvent, SeenInterrupt | undefined][]) => steps.reduce((current, [event, pending]) => nextCardState(current, event, pending), state);

/** A card whose interrupt has been seen pending, as `pending`. */
const shown = (pending: SeenInterrupt = alone, expired = false) => after(initialCardState(expired), [{ type: "pending" }, pending]);

describe("nextCardState", () => {
  it("starts open, with the editor closed, not yet armed (its interrupt not yet seen)", () => {
    const state = initialCardState(false);
    expect(state).toEqual({ phase: { name: "open" }, expired: false, editing: false, seen: undefined });
    expect(isArmed(state)).toBe(false);
  });

  it("starts answered when restored after its answer", () => {
    expect(initialCardState(false, "reject").phase).toEqual({ name: "answered", answer: "reject", where: "before" });
    expect(initialCardState(true, "cancelled").phase).toEqual({ name: "answered", answer: "cancelled", where: "before" });
  });

  it("is armed while its interrupt is pending", () => {
    expect(isArmed(shown())).toBe(true);
    expect(isArmed(after(shown(), [{ type: "pending" }, gone]))).toBe(false);
  });

  it("opens the editor on an armed card, and closes it on cancel", () => {
    const editing = after(shown(), [{ type: "edit" }, alone]);
    expect(editing.editing).toBe(true);
    expect(after(editing, [{ type: "cancel-edit" }, alone]).editing).toBe(false);
  });

  it("opens no editor while its interrupt is not pending, and closes the editor when the interrupt goes", () => {
    expect(after(initialCardState(false), [{ type: "edit" }, gone]).editing).toBe(false);
    expect(after(shown(), [{ type: "edit" }, alone], [{ type: "pending" }, gone]).editing).toBe(false);
  });

  it("is sending, disarmed and its editor closed, once an answer goes", () => {
    const sending = after(shown(), [{ type: "edit" }, alone], [{ type: "send", decision: "edit" }, alone]);
    expect(sending.phase).toEqual({ name: "sending", decision: "edit" });
    expect([isArmed(sending), sending.editing]).toEqual([false, false]);
  });

  it("is answered here once the answer is sent, and stays so when its interrupt goes", () => {
    const sent = after(shown(), [{ type: "send", decision: "approve" }, alone], [{ type: "sent", decision: "approve" }, gone]);
    expect(sent.phase).toEqual({ name: "answered", answer: "approve", where: "here" });
    expect(isArmed(sent)).toBe(false);
    expect(after(sent, [{ type: "pending" }, alone]).phase).toEqual(sent.phase);
  });

  it("is re-armed when the resume failed while its interrupt is still pending", () => {
    const failed = after(shown(), [{ type: "send", decision: "approve" }, alone], [{ type: "failed", decision: "approve", reason: "Agent unreachable." }, alone]);
    expect(failed.phase).toEqual({ name: "failed", decision: "approve", reason: "Agent unreachable.", retry: true });
    expect(isArmed(failed)).toBe(true);
  });

  it("stays disarmed when the resume failed after the agent took the answer", () => {
    const failed = after(shown(), [{ type: "send", decision: "reject" }, alone], [{ type: "failed", decision: "reject", reason: "Graph crashed." }, gone]);
    expect(failed.phase).toEqual({ name: "failed", decision: "reject", reason: "Graph crashed.", retry: false });
    expect(isArmed(failed)).toBe(false);
  });

  it("is answered elsewhere when its interrupt goes from an open card: with its decision, else cancelled", () => {
    const decided = shown({ decision: "approve", othersOpen: true });
    expect(after(decided, [{ type: "pending" }, gone]).phase).toEqual({ name: "answered", answer: "approve", where: "elsewhere" });
    expect(after(shown(), [{ type: "pending" }, gone]).phase).toEqual({ name: "answered", answer: "cancelled", where: "elsewhere" });
  });

  it("is open again when an interrupt answered elsewhere comes back (the run that took it never reached the agent)", () => {
    const back = after(shown(), [{ type: "pending" }, gone], [{ type: "pending" }, alone]);
    expect(back.phase).toEqual({ name: "open" });
    expect(isArmed(back)).toBe(true);
  });

  it("does not reopen a card answered before it was built", () => {
    const restored = after(initialCardState(false, "approve"), [{ type: "pending" }, alone]);
    expect(restored.phase).toEqual({ name: "answered", answer: "approve", where: "before" });
  });

  it("takes no going of its interrupt for an answer while its own answer is on its way", () => {
    const sending = after(shown(), [{ type: "send", decision: "approve" }, alone], [{ type: "pending" }, gone]);
    expect(sending.phase).toEqual({ name: "sending", decision: "approve" });
  });

  it("keeps an expired card open (it says it expired) when its interrupt goes", () => {
    expect(after(shown(alone, true), [{ type: "pending" }, gone]).phase).toEqual({ name: "open" });
  });
});

describe("decisionWaitingForOthers", () => {
  it("is the decision its interrupt holds while another pending interrupt has none", () => {
    expect(decisionWaitingForOthers(shown({ decision: "reject", othersOpen: true }))).toBe("reject");
  });

  it("is undefined when nothing waits: no decision, no other open interrupt, or its own answer on its way", () => {
    expect(decisionWaitingForOthers(shown({ othersOpen: true }))).toBeUndefined();
    expect(decisionWaitingForOthers(shown({ decision: "approve", othersOpen: false }))).toBeUndefined();
    const sending = after(shown({ othersOpen: true }), [{ type: "send", decision: "approve" }, { decision: "approve", othersOpen: true }]);
    expect(decisionWaitingForOthers(sending)).toBeUndefined();
  });
});

describe("a tool server's approval's tool run", () => {
  const sending = () => after(shown(), [{ type: "send", decision: "approve" }, alone]);
  const steps = (state: DecisionCardState, ...list: import("../../src/adapter/approvals/approvalRuns").ApprovalRunStep[]) => list.reduce((current, step) => nextCardState(current, { type: "tool", step }, gone), state);

  it("runs, then finishes with the tool's result, whichever of the two comes first", () => {
    expect(steps(sending(), { step: "started" }).toolRun).toEqual({ step: "running" });
    expect(steps(sending(), { step: "started" }, { step: "finished" }, { step: "result", result: { sent: true } }).toolRun).toEqual({ step: "finished", result: { value: { sent: true } } });
    expect(steps(sending(), { step: "result", result: { sent: true } }, { step: "started" }, { step: "finished" }).toolRun).toEqual({ step: "finished", result: { value: { sent: true } } });
  });

  it("fails with the problem's kind", () => {
    expect(steps(sending(), { step: "started" }, { step: "failed", kind: "tool-failed" }).toolRun).toEqual({ step: "failed", kind: "tool-failed" });
  });

  it("never goes back: a step seen again (a replay after a reconnect) changes nothing", () => {
    const finished = steps(sending(), { step: "started" }, { step: "finished" });
    expect(steps(finished, { step: "started" }, { step: "finished" })).toEqual(finished);
    const failed = steps(sending(), { step: "failed" });
    expect(steps(failed, { step: "started" }, { step: "finished" })).toEqual(failed);
  });
});
