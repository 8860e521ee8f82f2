import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import { JSDOM } from "jsdom";
import { EMPTY, of, throwError, type ObservableInput } from "rxjs";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter } from "../../src/adapter";
import type { CarbonItem } from "../../src/carbon";
import { createDecisionCard, renderDecisionCards } from "../../src/renderers/decisionCards";
import { ev } from "../support/builders";
import { waitUntil } from "../support/runs";

/** The recording Carbon (with the event bus the web component offers in onBeforeRender), rendering user_defined items. */
class CarbonWithBus extends CarbonRecorder {
  /** Asks for every user_defined item of the latest final response, as Carbon does when it renders them. */
  renderUserDefined() {
    const final = [...this.chunks].reverse().find((chunk) => "final_response" in chunk) as { final_response: { output: { generic: CarbonItem[] } } };
    final.final_response.output.generic
      .filter((item) => item.response_type === "user_defined")
      .forEach((message, index) => this.fire("userDefinedResponse", { message, slot: `slot-${index}` }));
  }
}

const callThenInterrupt = (interrupt: object) =>
  of(
    ev.runStarted(),
    ev.toolStart("t1", "send_email"),
    ev.toolArgs("t1", '{"to":"ada@example.com"}'),
    ev.toolEnd("t1"),
    ev.runFinished({ outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "approval", message: "Send this email?", toolCallId: "t1", ...interrupt }] } }),
  );
const answer = (text: string) => of(ev.runStarted(), ev.textStart("c1"), ev.text("c1", text), ev.textEnd("c1"), ev.runFinished());

/** `interrupt`: fields over the default interrupt on a send_email call, or the whole first run. */
async function setUp(interrupt: object | (() => ObservableInput<BaseEvent>), ...resumes: (() => ObservableInput<BaseEvent>)[]) {
  return setUpIn(new JSDOM("<!doctype html><div id=chat></div>").window.document, interrupt, ...resumes);
}

async function setUpIn(document: Document, interrupt: object | (() => ObservableInput<BaseEvent>), ...resumes: (() => ObservableInput<BaseEvent>)[]) {
  const host = document.getElementById("chat") as HTMLElement;
  const inputs: RunAgentInput[] = [];
  const runs = [typeof interrupt === "function" ? interrupt : () => callThenInterrupt(interrupt), ...resumes];
  /** What the adapter reported: a resume that failed, said in the card too. */
  const errors: string[] = [];
  const adapter = new CarbonAgUiAdapter({ run: (input) => (inputs.push(input), runs[inputs.length - 1]!()), onError: (error) => errors.push(error.message) });
  const carbon = new CarbonWithBus();
  const dispose = renderDecisionCards({ instance: carbon, host, adapter, now: () => Date.parse("2026-11-30T12:00:00Z") });
  await adapter.sendMessage({ id: "u1", input: { text: "Email Ada" } }, { signal: new AbortController().signal }, carbon);
  carbon.renderUserDefined();
  const card = host.querySelector<HTMLElement>(".cagr-decision-card")!;
  const buttonFor = (name: string) => card.querySelector<HTMLButtonElement>(`.cagr-card-${name}`)!;
  const editor = card.querySelector<HTMLTextAreaElement>(".cagr-card-editor")!;
  const text = (selector: string) => card.querySelector(selector)?.textContent ?? "";
  const answerButtons = () => armed(["approve", "edit", "reject"].map(buttonFor));
  return { host, card, inputs, errors, adapter, carbon, dispose, buttonFor, editor, text, answerButtons };
}

const armed = (buttons: HTMLButtonElement[]) => buttons.map((button) => !button.disabled);

describe("renderDecisionCards", () => {
  it("slots a decision card where Carbon asks, showing the request and the tool call's arguments as code", async () => {
    const { host, card, buttonFor, editor, answerButtons } = await setUp({});
    expect(card.slot).toBe("slot-0");
    expect(card.dataset.interruptId).toBe("i1");
    expect(card.getAttribute("role")).toBe("group");
    expect(card.querySelector(".cagr-card-message")?.textContent).toBe("Send this email?");
    expect(card.querySelector(".cagr-card-action")?.textContent).toBe("Action: send_email");
    expect(card.querySelector(".cagr-card-code")?.textContent).toBe('{\n  "to": "ada@example.com"\n}');
    expect(editor.hidden).toBe(true);
    expect(answerButtons()).toEqual([true, true, true]);
    expect([buttonFor("send").hidden, buttonFor("cancel").hidden]).toEqual([true, true]);
    expect(host.querySelectorAll(".cagr-decision-card")).toHaveLength(1);
    expect(host.ownerDocument.querySelectorAll("style#cagr-card-styles")).toHaveLength(1);
  });

  it("says which subagent asks, above what it asks", async () => {
    const supervisor = () =>
      of(
        ev.runStarted(),
        ev.subagentStarted("s1", "researcher"),
        ev.subagentFinished("s1"),
        ev.runFinished({ outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "input_required", message: "Which ocean?", subagentRunId: "s1" }] } }),
      );
    const { card } = await setUp(supervisor);
    expect([...card.querySelectorAll("p")].slice(0, 2).map((line) => line.textContent)).toEqual(["Asked by researcher", "Which ocean?"]);
  });

  it("builds the card from Carbon's web components when the page has them registered", async () => {
    const window = new JSDOM("<!doctype html><div id=chat></div>").window;
    for (const tag of ["cds-button", "cds-textarea", "cds-inline-loading"]) window.customElements.define(tag, class extends window.HTMLElement {});
    const { card } = await setUpIn(window.document, {});
    expect([...card.querySelectorAll(".cagr-card-button")].map((element) => element.localName)).toEqual(Array(5).fill("cds-button"));
    expect(card.querySelector(".cagr-card-approve")?.getAttribute("kind")).toBe("primary");
    expect(card.querySelector(".cagr-card-editor")?.localName).toBe("cds-textarea");
    expect(card.querySelector(".cagr-card-status")?.localName).toBe("cds-inline-loading");
  });

  it("says what is being approved when the interrupt has no message: the tool and its arguments", async () => {
    const { card } = await setUp({ message: undefined });
    expect(card.querySelector(".cagr-card-message")?.textContent).toBe("Allow send_email?");
    expect(card.querySelector(".cagr-card-action")?.textContent).toBe("Action: send_email");
    expect(JSON.parse((card.querySelector("textarea") as HTMLTextAreaElement).value)).toEqual({ to: "ada@example.com" });
  });

  it("shows a Mastra suspension's question, tool and arguments, though Mastra sent no events for the call", async () => {
    const suspended = () =>
      of(
        ev.runStarted(),
        ev.runFinished({
          outcome: {
            type: "interrupt",
            interrupts: [{ id: "run-1::t1", reason: "mastra:tool_suspend", toolCallId: "t1", metadata: { mastra: { toolName: "send_email", args: { to: "ada@example.com" }, suspendPayload: { question: "Send it to Ada?" } } } }],
          },
        }),
      );
    const { card } = await setUp(suspended);
    expect(card.querySelector(".cagr-card-message")?.textContent).toBe("Send it to Ada?");
    expect(card.querySelector(".cagr-card-action")?.textContent).toBe("Action: send_email");
    expect(JSON.parse((card.querySelector("textarea") as HTMLTextAreaElement).value)).toEqual({ to: "ada@example.com" });
  });

  it("approves through respondToInterrupt, streams the continuation, and disables itself", async () => {
    const { card, inputs, carbon, buttonFor, text } = await setUp({}, () => answer("Sent."));
    buttonFor("approve").click();
    expect(text(".cagr-card-status")).toBe("Sending your answer…");
    expect(card.querySelector(".cagr-card-status")?.getAttribute("status")).toBe("active");
    await waitUntil(() => text(".cagr-card-status") === "Approved.");
    expect(inputs[1]?.resume).toEqual([{ interruptId: "i1", status: "resolved", payload: { approved: true } }]);
    expect(armed([...card.querySelectorAll("button")])).toEqual([false, false, false, false, false]);
    expect(carbon.transcript()).toMatch(/Assistant: Sent\.$/);
  });

  it("sends edited arguments once they parse and fit the responseSchema, and says what is wrong until then", async () => {
    const schema = { type: "object", required: ["to"], properties: { to: { type: "string" } } };
    const { inputs, buttonFor, editor, text } = await setUp({ responseSchema: schema }, () => answer("Sent to Bob."));
    buttonFor("edit").click();
    expect([editor.hidden, buttonFor("approve").hidden, buttonFor("send").hidden]).toEqual([false, true, false]);
    expect(JSON.parse(editor.value)).toEqual({ to: "ada@example.com" });
    expect(editor.rows).toBe(4); // fits the three lines of arguments, and one to type on
    editor.value = "{ not json";
    buttonFor("send").click();
    expect(text(".cagr-card-problem")).toMatch(/^The arguments are not valid JSON/);
    editor.value = '{"to": 42}';
    buttonFor("send").click();
    expect(text(".cagr-card-problem")).toBe('The arguments do not fit: to: Instance type "number" is invalid. Expected "string".');
    expect(inputs).toHaveLength(1);
    editor.value = '{"to": "bob@example.com"}';
    buttonFor("send").click();
    await waitUntil(() => text(".cagr-card-status") === "Approved with your changes.");
    expect(inputs[1]?.resume).toEqual([{ interruptId: "i1", status: "resolved", payload: { approved: true, args: { to: "bob@example.com" } } }]);
    // The answered card shows what was sent.
    expect(JSON.parse(text(".cagr-card-code"))).toEqual({ to: "bob@example.com" });
  });

  it("puts the edited arguments back when editing is cancelled", async () => {
    const { buttonFor, editor, inputs } = await setUp({});
    buttonFor("edit").click();
    editor.value = '{"to": "eve@example.com"}';
    buttonFor("cancel").click();
    expect([editor.hidden, buttonFor("approve").hidden, buttonFor("send").hidden]).toEqual([true, false, true]);
    expect(JSON.parse(editor.value)).toEqual({ to: "ada@example.com" });
    expect(inputs).toHaveLength(1);
  });

  it("re-arms itself when the resume fails before any event, says why in plain words, and can be answered again", async () => {
    const { card, inputs, errors, buttonFor, text, answerButtons } = await setUp({}, () => throwError(() => new Error("agent unreachable")), () => answer("Sent."));
    buttonFor("approve").click();
    await waitUntil(() => text(".cagr-card-status").includes("could not go on"));
    expect(text(".cagr-card-status")).toBe("Approved, but the agent could not go on: agent unreachable. You can answer again.");
    expect(card.querySelector(".cagr-card-status")?.getAttribute("status")).toBe("error");
    expect(answerButtons()).toEqual([true, true, true]);
    buttonFor("approve").click();
    await waitUntil(() => text(".cagr-card-status") === "Approved.");
    expect(inputs).toHaveLength(3);
    expect(errors).toEqual(["agent unreachable"]);
  });

  it("stays disabled when the resume failed after the agent took the answer", async () => {
    const { buttonFor, text, answerButtons, errors } = await setUp({}, () => of(ev.runStarted(), ev.runError("graph crashed")));
    buttonFor("reject").click();
    await waitUntil(() => text(".cagr-card-status").includes("could not go on"));
    expect(text(".cagr-card-status")).toBe("Rejected, but the agent could not go on: graph crashed.");
    expect(answerButtons()).toEqual([false, false, false]);
    expect(errors).toEqual(["graph crashed"]);
  });

  it("offers only Reject once the interrupt has expired", async () => {
    const { buttonFor, text, inputs } = await setUp({ expiresAt: "2026-11-30T11:00:00Z" }, () => EMPTY, () => answer("Cancelled."));
    expect(armed([buttonFor("approve"), buttonFor("edit"), buttonFor("reject")])).toEqual([false, false, true]);
    expect(text(".cagr-card-note")).toBe("This request has expired, so it can only be rejected.");
    expect(inputs).toHaveLength(1);
  });

  it("says an answer waits for the other open cards, and sends all answers together", async () => {
    const document = new JSDOM("<!doctype html><div id=chat></div>").window.document;
    const host = document.getElementById("chat") as HTMLElement;
    const inputs: RunAgentInput[] = [];
    const two = () => of(ev.runStarted(), ev.runFinished({ outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "first" }, { id: "i2", reason: "second" }] } }));
    const adapter = new CarbonAgUiAdapter({ run: (input) => (inputs.push(input), inputs.length === 1 ? two() : answer("Both done.")) });
    const carbon = new CarbonWithBus();
    renderDecisionCards({ instance: carbon, host, adapter });
    await adapter.sendMessage({ input: { text: "Go" } }, { signal: new AbortController().signal }, carbon);
    carbon.renderUserDefined();
    const [first, second] = [...host.querySelectorAll<HTMLElement>(".cagr-decision-card")];
    first!.querySelector<HTMLButtonElement>(".cagr-card-approve")!.click();
    await waitUntil(() => first!.querySelector(".cagr-card-note")?.textContent === "Approved. It will be sent once every open request is answered.");
    expect(inputs).toHaveLength(1);
    second!.querySelector<HTMLButtonElement>(".cagr-card-reject")!.click();
    await waitUntil(() => inputs.length === 2 && second!.querySelector(".cagr-card-note")?.textContent === "Rejected.");
    expect(inputs[1]?.resume?.map((entry) => entry.status)).toEqual(["resolved", "cancelled"]);
    // The first card's answer went with the second's: it says it was sent, not that it still waits.
    expect(first!.querySelector(".cagr-card-status")?.textContent).toBe("Approved.");
  });

  it("says why it can no longer be answered when a message sent instead cancelled its request", async () => {
    // The cancellation's run (the agent takes it), then the message's.
    const { card, adapter, carbon, answerButtons, text, inputs, errors } = await setUp({}, () => of(ev.runStarted(), ev.runFinished()), () => answer("Something else, then."));
    await adapter.sendMessage({ id: "u2", input: { text: "Never mind, do something else" } }, { signal: new AbortController().signal }, carbon);
    expect(answerButtons()).toEqual([false, false, false]);
    // A note in plain text: neither a success's check mark nor a loading icon.
    expect(text(".cagr-card-note")).toBe("Not answered: a message sent instead cancelled this request.");
    expect(card.querySelector<HTMLElement>(".cagr-card-note")?.hidden).toBe(false);
    expect(card.querySelector<HTMLElement>(".cagr-card-status")?.hidden).toBe(true);
    expect(inputs.map((input) => input.resume?.map((entry) => entry.status))).toEqual([undefined, ["cancelled"], undefined]);
    expect(errors).toEqual([]);
  });

  it("is answerable again, without the cancellation note, when the run cancelling it for a message sent instead never reached the agent", async () => {
    const { adapter, carbon, answerButtons, text, buttonFor, inputs, errors } = await setUp({}, () => throwError(() => new Error("connection refused")), () => answer("Sent."));
    await adapter.sendMessage({ id: "u2", input: { text: "Never mind" } }, { signal: new AbortController().signal }, carbon);
    expect(answerButtons()).toEqual([true, true, true]);
    expect(text(".cagr-card-note")).toBe("");
    buttonFor("approve").click();
    await waitUntil(() => text(".cagr-card-status") === "Approved.");
    expect(inputs[2]?.resume?.map((entry) => entry.status)).toEqual(["resolved"]);
    expect(errors).toEqual(["connection refused"]);
  });

  it("renders a clarification card with the question", async () => {
    const document = new JSDOM("<!doctype html><div id=chat></div>").window.document;
    const host = document.getElementById("chat") as HTMLElement;
    const carbon = new CarbonWithBus();
    const adapter = new CarbonAgUiAdapter({
      run: () => of(ev.runStarted(), { type: EventType.STATE_SNAPSHOT, snapshot: { ask: "Which account?" } } as BaseEvent, ev.runFinished()),
      detectClarification: (state) => ({ question: (state as { ask: string }).ask }),
    });
    renderDecisionCards({ instance: carbon, host, adapter });
    await adapter.sendMessage({ input: { text: "Pay the bill" } }, { signal: new AbortController().signal }, carbon);
    carbon.renderUserDefined();
    expect(host.querySelector(".cagr-clarification-card .cagr-card-message")?.textContent).toBe("Which account?");
  });

  it("drops the cards of a thread the adapter leaves (a reset, a new thread, a switch), so a thread switched back to gets its cards anew", async () => {
    const { host, carbon, adapter } = await setUp({});
    carbon.renderUserDefined();
    expect(host.querySelectorAll(".cagr-card")).toHaveLength(1);
    adapter.reset();
    expect(host.querySelectorAll(".cagr-card")).toHaveLength(0);
  });

  it("renders each slot once, drops its cards when the conversation restarts, and lets go of everything when disposed", async () => {
    const { host, carbon, dispose } = await setUp({});
    carbon.renderUserDefined();
    expect(host.querySelectorAll(".cagr-card")).toHaveLength(1);
    carbon.fire("restartConversation");
    expect(host.querySelectorAll(".cagr-card")).toHaveLength(0);
    dispose();
    // What is left is the adapter's own: it follows the stop button, the restart and feedback (into the thread's log) for as long as it lives.
    expect(carbon.listeners.map((handler) => handler.type)).toEqual(["stopStreaming", "pre:restartConversation", "feedback"]);
  });
});

describe("a decision card restored after its answer (a reload, a thread switched back to)", () => {
  const restored = (answer: "approve" | "edit" | "reject" | "cancelled" | undefined) => {
    const document = new JSDOM("<!doctype html>").window.document;
    const adapter = { respondToInterrupt: async () => undefined, pendingInterrupts: [], pendingInterrupts$: of([]), interruptAnswer: () => answer };
    const data = { kind: "interrupt" as const, interruptId: "i1", reason: "approval", message: "Send this email?" };
    const { element } = createDecisionCard(document, data, { instance: new CarbonRecorder() as never, adapter });
    const shown = (selector: string) => element.querySelector<HTMLElement>(selector)!;
    return { approve: shown(".cagr-card-approve") as HTMLButtonElement, status: shown(".cagr-card-status"), note: shown(".cagr-card-note") };
  };

  it("says how it was answered, its buttons disabled", () => {
    const { approve, status } = restored("edit");
    expect(status.textContent).toBe("Approved with your changes.");
    expect(status.hidden).toBe(false);
    expect(approve.disabled).toBe(true);
  });

  it("says a message sent instead cancelled it", () => {
    expect(restored("cancelled").note.textContent).toBe("Not answered: a message sent instead cancelled this request.");
  });

  it("says nothing it does not know", () => {
    const { status, note } = restored(undefined);
    expect([status.hidden, note.hidden]).toEqual([true, true]);
  });
});
