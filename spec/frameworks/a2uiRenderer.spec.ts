/**
 * The A2UI renderer on a real adapter, its agent the scripted booking agent behind the real
 * `@ag-ui/a2ui-middleware` (in process): `renderA2uiSurfaces` slots a surface where Carbon asks, the surface
 * follows the activity to its painted form, Book sends what was typed and waits while it is on its way, a new
 * message of the person's leaves it stale, warnings reach the adapter's `onWarning`, and a restart drops it.
 */
import { JSDOM } from "jsdom";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import type { ObservableInput } from "rxjs";
import { createA2uiAgent } from "../../examples/frameworks/a2ui";
import { renderA2uiSurfaces } from "../../src/a2ui";
import { CarbonAgUiAdapter } from "../../src/adapter";
import type { CarbonAgUiError } from "../../src/errors";
import { ev } from "../support/builders";
import { waitUntil } from "../support/runs";

function setUp(run: (input: RunAgentInput) => ObservableInput<BaseEvent> = createA2uiAgent().run) {
  const window = new JSDOM("<!doctype html><div id=chat></div>").window;
  const host = window.document.getElementById("chat")!;
  const inputs: RunAgentInput[] = [];
  const warnings: CarbonAgUiError[] = [];
  const adapter = new CarbonAgUiAdapter({ run: (input) => (inputs.push(input), run(input)), coalesce: false, onWarning: (warning) => warnings.push(warning) });
  const instance = new CarbonRecorder();
  const stop = renderA2uiSurfaces({ instance, host, adapter });
  const say = (text: string) => adapter.sendMessage({ id: `u-${text}`, input: { text } }, { signal: new AbortController().signal }, instance);
  /** Carbon asking for the answer's user_defined items, as it does once it draws them. */
  const drawItems = async () => {
    const answer = instance.chunks.flatMap((chunk) => ("final_response" in chunk ? [chunk.final_response] : [])).at(-1)!;
    for (const [at, item] of answer.output.generic.entries()) if (item.response_type === "user_defined") await instance.fire("userDefinedResponse", { message: item, slot: `slot-${answer.id}-${at}` });
    // Surfaces repaint at most once a frame (the async scheduler's task here).
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { window, host, adapter, inputs, warnings, instance, stop, say, drawItems };
}

describe("renderA2uiSurfaces on a real adapter and the real middleware", () => {
  it("draws the surface where Carbon asks, painted; Book sends what was typed once, and the surface waits until it is answered", async () => {
    const { window, host, inputs, say, drawItems, adapter } = setUp();
    await say("Book a room");
    await drawItems();
    const surface = host.querySelector<HTMLElement>(".cagr-a2ui")!;
    expect(surface.slot).toMatch(/^slot-/);
    const name = surface.querySelector<HTMLInputElement>('[data-a2ui-id="name"] input, input[data-a2ui-id="name"]')!;
    name.value = "Ada";
    name.dispatchEvent(new window.Event("input", { bubbles: true }));
    const book = [...surface.querySelectorAll("button")].find((button) => button.textContent === "Book")!;
    book.click();
    book.click();
    expect(surface.textContent).toContain("Sending");
    await waitUntil(() => adapter.messages.at(-1)?.content?.toString().startsWith("Booked") === true);
    expect(inputs.filter((input) => input.forwardedProps?.a2uiAction).map((input) => input.forwardedProps.a2uiAction.userAction.context.name)).toEqual(["Ada"]);
    await waitUntil(() => !surface.textContent!.includes("Sending"));
    expect(book.disabled).toBe(false);
  });

  it("leaves the surface stale once the person sends a message, and a click then sends nothing", async () => {
    const { host, inputs, say, drawItems } = setUp();
    await say("Book a room");
    await drawItems();
    await say("Thanks");
    const surface = host.querySelector<HTMLElement>(".cagr-a2ui")!;
    expect(surface.textContent).toContain("This form belongs to an earlier answer.");
    const runs = inputs.length;
    [...surface.querySelectorAll("button")].find((button) => button.textContent === "Book")!.click();
    expect(inputs).toHaveLength(runs);
  });

  it("reports a refusal of the view through the adapter's onWarning, naming the activity", async () => {
    const evil = {
      a2ui_operations: [
        { version: "v0.9", createSurface: { surfaceId: "evil", catalogId: "https://a2ui.org/specification/v0_9/basic_catalog.json" } },
        { version: "v0.9", updateComponents: { surfaceId: "evil", components: [{ id: "root", component: "Image", url: "javascript:alert(1)", description: "A cat" }] } },
      ],
    };
    const { warnings, host, window, say, drawItems } = setUp(() => [ev.runStarted(), ev.activitySnapshot("evil", "a2ui-surface", evil), ev.runFinished()]);
    await say("Show me a cat");
    await drawItems();
    expect(host.querySelector(".cagr-a2ui img")).toBeNull();
    expect(host.querySelector(".cagr-a2ui")!.textContent).toContain("A cat");
    expect(warnings.map((warning) => [warning.name, (warning as CarbonAgUiError & { activityId: string }).activityId])).toEqual([["AgUiSurfaceError", "evil"]]);
    expect(window.document.querySelectorAll("script")).toHaveLength(0);
  });

  it("drops its surfaces on Carbon's restart and when stopped", async () => {
    const { host, say, drawItems, instance, stop } = setUp();
    await say("Book a room");
    await drawItems();
    expect(host.querySelectorAll(".cagr-a2ui")).toHaveLength(1);
    await instance.fire("restartConversation");
    expect(host.querySelectorAll(".cagr-a2ui")).toHaveLength(0);
    stop();
    expect(instance.listeners.map((handler) => handler.type)).not.toContain("userDefinedResponse");
  });
});
