import { DECISION_CARD_TEXT } from "../../src/renderers/cardText";
import { initialCardState, type DecisionCardPhase, type DecisionCardState } from "../../src/renderers/decisionCardState";
import { decisionCardView } from "../../src/renderers/decisionCardView";

const state = (phase: DecisionCardPhase, fields: Partial<DecisionCardState> = {}): DecisionCardState => ({ ...initialCardState(false), phase, seen: { othersOpen: false }, ...fields });
const view = (of: DecisionCardState) => decisionCardView(of, DECISION_CARD_TEXT);

describe("decisionCardView", () => {
  it("offers every answer on an open card, and says nothing", () => {
    expect(view(state({ name: "open" }))).toEqual({ editing: false, armed: true, approvable: true, says: { text: "", status: "note" } });
  });

  it("offers only Reject on an expired card, and says why in a note", () => {
    expect(view(state({ name: "open" }, { expired: true }))).toEqual({
      editing: false,
      armed: true,
      approvable: false,
      says: { text: "This request has expired, so it can only be rejected.", status: "note" },
    });
  });

  it("shows the editor while editing", () => {
    expect(view(state({ name: "open" }, { editing: true })).editing).toBe(true);
  });

  it("says an answer is on its way as progress, every button disabled", () => {
    expect(view(state({ name: "sending", decision: "approve" }))).toEqual({ editing: false, armed: false, approvable: false, says: { text: "Sending your answer…", status: "active" } });
  });

  it("says a decision waits for the other open cards in a note", () => {
    expect(view(state({ name: "answered", answer: "approve", where: "here" }, { seen: { decision: "approve", othersOpen: true } })).says).toEqual({
      text: "Approved. It will be sent once every open request is answered.",
      status: "note",
    });
  });

  it("says how it was answered as finished, a cancellation as a note", () => {
    expect(view(state({ name: "answered", answer: "edit", where: "before" }, { seen: undefined })).says).toEqual({ text: "Approved with your changes.", status: "finished" });
    expect(view(state({ name: "answered", answer: "cancelled", where: "elsewhere" }, { seen: undefined })).says).toEqual({
      text: "Not answered: a message sent instead cancelled this request.",
      status: "note",
    });
  });

  it("says why the agent could not go on as an error, and whether the card can be answered again", () => {
    expect(view(state({ name: "failed", decision: "approve", reason: "Agent unreachable.", retry: true })).says).toEqual({
      text: "Approved, but the agent could not go on: Agent unreachable. You can answer again.",
      status: "error",
    });
    expect(view(state({ name: "failed", decision: "reject", reason: "Graph crashed.", retry: false }, { seen: undefined })).says.text).toBe("Rejected, but the agent could not go on: Graph crashed.");
  });

  describe("a tool server's approval's tool run", () => {
    it("says the tool runs, as progress, once approved", () => {
      expect(view(state({ name: "sending", decision: "edit" }, { toolRun: { step: "running" } })).says).toEqual({ text: "Approved with your changes. Running…", status: "active" });
    });

    it("says it finished, with the tool's result when the card has it", () => {
      expect(view(state({ name: "answered", answer: "approve", where: "elsewhere" }, { toolRun: { step: "finished" } })).says).toEqual({ text: "Approved. The tool has run.", status: "finished" });
      expect(view(state({ name: "sending", decision: "approve" }, { toolRun: { step: "finished", result: { value: { sent: true } } } })).says).toEqual({ text: 'Approved. The tool has run: {"sent":true}', status: "finished" });
    });

    it("shortens a long result", () => {
      const says = view(state({ name: "sending", decision: "approve" }, { toolRun: { step: "finished", result: { value: "x".repeat(500) } } })).says;
      expect(says.text.length).toBeLessThan(260);
      expect(says.text.endsWith("…")).toBe(true);
    });

    it("says it failed as an error, over the answer's own failure", () => {
      expect(view(state({ name: "failed", decision: "approve", reason: "Send_email raised Error.", retry: false }, { toolRun: { step: "failed", kind: "tool-failed" } })).says).toEqual({ text: "Approved, but the tool failed (tool-failed).", status: "error" });
    });
  });
});
