import type { Page } from "playwright-core";
import { serveFramework } from "../../examples/frameworks/serve";
import { docsScreenshot, useBrowserOn } from "./browser";
import { startWebDemo, type WebDemo } from "../../examples/web/serve";

/**
 * The booking agent behind the real `@ag-ui/a2ui-middleware` (examples/frameworks/a2ui.ts), as `npm run demo:a2ui`
 * serves it, in Chromium on both pages: the form paints after "building" with Carbon's components, a typed name
 * travels in the action's context and the agent's confirmation shows, a reload restores the form live (from the
 * page's store), a surface comes into the chat already drawn, and a form the agent cannot make shows why while the
 * chat goes on. Screenshots go to docs/screenshots/a2ui-*.png.
 */
let stopAgent: () => Promise<void> = async () => undefined;
const browsing = useBrowserOn<WebDemo>(async () => {
  const agent = await serveFramework("a2ui");
  stopAgent = agent.close;
  const demo = await startWebDemo(agent.url);
  return { ...demo, close: () => demo.close().finally(stopAgent) };
});
const messages = (page: Page) => page.locator('[data-testid^="message-by-index"]');
const surface = (page: Page) => page.locator(".cagr-a2ui").last();
const CONFIRMED = "Booked Harbour View for Ada Lovelace: 2 nights, 2 guests, breakfast included.";


describe.each([
  ["web component", "", "web"],
  ["React", "react", "react"],
  ["web component, dark theme", "?theme=g100", "web-dark"],
])("an A2UI booking form, in Chromium on the %s page", (_renderer, query, slug) => {
  it("paints the form with Carbon's components, sends what was typed with Book, shows the reply, and restores the form after a reload", async () => {
    const { page, send } = await browsing.open(query);
    await send("Book a room");
    const form = surface(page);
    await form.getByText("Book a room", { exact: true }).waitFor();
    const name = form.getByLabel("Name on the booking");
    await name.waitFor();
    // Drawn with Carbon's own web components where the page registered them.
    expect(await form.locator("cds-text-input, cds-slider, cds-checkbox, cds-button, cds-tile").count()).toBeGreaterThanOrEqual(5);
    await name.fill("Ada Lovelace");
    await docsScreenshot(page, `a2ui-form-${slug}`);
    await form.getByRole("button", { name: "Book", exact: true }).click();
    await messages(page).getByText(CONFIRMED).waitFor();
    await docsScreenshot(page, `a2ui-booked-${slug}`);

    await page.waitForFunction(() => new URLSearchParams(location.search).has("thread"));
    await page.reload();
    await messages(page).getByText(CONFIRMED).waitFor();
    const restored = surface(page);
    await restored.getByLabel("Name on the booking").waitFor();
    // Live: its Book button can be pressed again (the conversation has not moved on).
    expect(await restored.getByRole("button", { name: "Book", exact: true }).isDisabled()).toBe(false);
  });
});

describe("an A2UI surface coming into the chat, in Chromium", () => {
  it("is slotted into Carbon already drawn, so Carbon lays the message out once, at the item's height", async () => {
    const { page, send } = await browsing.open("?persist=off");
    // What each surface holds at the moment it is slotted into the chat element (the web component's light DOM).
    await page.evaluate(() => {
      const host = document.querySelector("cds-aichat-custom-element")!;
      const held: number[] = ((window as unknown as { surfacesSlotted: number[] }).surfacesSlotted = []);
      new MutationObserver((records) => {
        for (const record of records) for (const node of record.addedNodes) if (node instanceof HTMLElement && node.classList.contains("cagr-a2ui")) held.push(node.querySelector(".cagr-a2ui-body")!.childElementCount);
      }).observe(host, { childList: true });
    });
    await send("Book a room");
    await surface(page).getByLabel("Name on the booking").waitFor();
    const slotted = await page.evaluate(() => (window as unknown as { surfacesSlotted: number[] }).surfacesSlotted);
    expect(slotted).toHaveLength(1);
    expect(slotted[0]).toBeGreaterThan(0);
  });
});

describe("an A2UI form the agent cannot make, in Chromium", () => {
  it("shows it building, then failed with why, and the chat goes on", async () => {
    const { page, send } = await browsing.open("?persist=off");
    await send("Make me a broken form");
    const form = surface(page);
    await form.getByText("The form could not be built").waitFor();
    await form.getByText("The form had no root component").waitFor();
    await docsScreenshot(page, "a2ui-failed-web");
    await send("Hello");
    await messages(page).getByText("Ask me to book a room, and I will give you a form for it.").waitFor();
  });
});
