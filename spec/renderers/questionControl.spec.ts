/**
 * The question's control (`editQuestions`), drawn by `renderAnswerVersions` where Carbon slots the answer's first item:
 * Edit puts the question in Carbon's input and arms the edit, Cancel lets go of it, the next message sent takes the
 * question's place; "‹ 2 / 2 ›" then moves between the question's branches; nothing offered while a card waits.
 */
import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import { JSDOM } from "jsdom";
import { firstValueFrom, of } from "rxjs";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter } from "../../src/adapter";
import type { CarbonItem } from "../../src/carbon";
import { renderAnswerVersions } from "../../src/renderers/renderAnswerVersions";
import { ev } from "../support/builders";
import { waitUntil } from "../support/runs";

/** The recording Carbon with the event bus the web component offers in onBeforeRender, rendering user_defined items. */
class CarbonWithBus extends CarbonRecorder {
  private slots = 0;
  /** Asks for the user_defined items of every final response so far, as Carbon does when it renders them. */
  async renderUserDefined(): Promise<void> {
    for (const chunk of this.chunks) {
      if (!("final_response" in chunk)) continue;
      const items = (chunk.final_response as { output: { generic: CarbonItem[] } }).output.generic.filter((item) => item.response_type === "user_defined");
      for (const message of items) await this.fire("userDefinedResponse", { message, slot: `slot-${this.slots++}` });
    }
  }
}

const answering =
  (id: string, text: string) =>
  (input: RunAgentInput): BaseEvent[] => [ev.runStarted(input.runId, input.threadId), ...ev.message(id, text), ev.runFinished({ runId: input.runId, threadId: input.threadId })];

async function setUp(runs: ((input: RunAgentInput) => BaseEvent[])[]) {
  const { window } = new JSDOM('<!doctype html><div id="chat"></div>');
  const host = window.document.getElementById("chat") as HTMLElement;
  const inputs: RunAgentInput[] = [];
  const warnings: string[] = [];
  const adapter = new CarbonAgUiAdapter({ editQuestions: true, coalesce: false, run: (input) => (inputs.push(input), of(...runs[inputs.length - 1]!(input))), onWarning: (warning) => warnings.push(warning.message) });
  const carbon = new CarbonWithBus(adapter.sendMessage);
  const dispose = renderAnswerVersions({ instance: carbon, host, adapter });
  const controls = () => [...host.querySelectorAll<HTMLElement>(".cagr-question")].filter((control) => !control.hidden);
  const button = (control: HTMLElement, name: string) => control.querySelector<HTMLButtonElement>(`[aria-label="${name}"]`)!;
  const shown = (control: HTMLElement) => [...control.querySelectorAll<HTMLElement>("button, span")].filter((element) => !element.hidden).map((element) => element.getAttribute("aria-label") ?? element.textContent);
  return { host, inputs, warnings, adapter, carbon, dispose, controls, button, shown };
}

describe("the question's control", () => {
  it("offers Edit under each question; Edit fills Carbon's input, Cancel empties it, the message sent then takes the question's place", async () => {
    const { adapter, carbon, controls, button, shown, inputs } = await setUp([answering("a1", "Hello."), answering("a2", "Bonjour.")]);
    await carbon.send({ id: "u1", input: { text: "Hi" } });
    await carbon.renderUserDefined();
    const [control] = controls();
    expect(control!.slot).toBe("slot-0");
    expect(shown(control!)).toEqual(["Edit the question"]);

    button(control!, "Edit the question").click();
    await waitUntil(() => carbon.inputValue === "Hi");
    expect(shown(control!)).toEqual(["Editing: change the question below and send it", "Cancel the edit"]);
    button(control!, "Cancel the edit").click();
    await waitUntil(() => shown(control!).length === 1);
    expect(carbon.inputValue).toBe("");

    button(control!, "Edit the question").click();
    await waitUntil(() => carbon.inputValue === "Hi");
    await carbon.send({ id: "u2", input: { text: "Hi in French" } });
    expect(inputs[1]!.messages.map((message) => message.content)).toEqual(["Hi in French"]);
    expect(carbon.transcript()).toBe("You: Hi in French\nAssistant: Bonjour.");
    expect((await firstValueFrom(adapter.questionVersions$)).map(({ index, count }) => `${index + 1}/${count}`)).toEqual(["2/2"]);
  });

  it("moves between the question's branches with its arrows, and the chat shows the branch chosen", async () => {
    const { adapter, carbon, controls, button, shown } = await setUp([answering("a1", "Hello."), answering("a2", "Bonjour.")]);
    await carbon.send({ id: "u1", input: { text: "Hi" } });
    await adapter.editQuestion("u1", "Hi in French", carbon);
    await carbon.renderUserDefined();
    const control = controls().at(-1)!;
    expect(shown(control)).toEqual(["Previous version of the question", "2 / 2", "Next version of the question", "Edit the question"]);
    expect(button(control, "Next version of the question").disabled).toBe(true);
    button(control, "Previous version of the question").click();
    await waitUntil(() => carbon.transcript() === "You: Hi\nAssistant: Hello.");
    expect(adapter.messages.map((message) => message.content)).toEqual(["Hi", "Hello."]);
  });

  it("offers nothing while a card waits", async () => {
    const card = (input: RunAgentInput) => [ev.runStarted(input.runId, input.threadId), ev.runFinished({ runId: input.runId, threadId: input.threadId, outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "approval", message: "Send it?" }] } })];
    const { carbon, controls, button, shown } = await setUp([answering("a1", "Hello."), card]);
    await carbon.send({ id: "u1", input: { text: "Hi" } });
    await carbon.send({ id: "u2", input: { text: "Send the forecast" } });
    await carbon.renderUserDefined();
    const [first] = controls();
    await waitUntil(() => button(first!, "Edit the question").hidden);
    expect(shown(first!)).toEqual([]);
  });
});
