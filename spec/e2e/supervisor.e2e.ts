import { join } from "node:path";
import type { Page } from "playwright-core";
import { serveFramework } from "../../examples/frameworks/serve";
import { startWebDemo, type WebDemo } from "../../examples/web/serve";
import { useBrowserOn } from "./browser";

/**
 * A real LangGraph supervisor (examples/frameworks/langgraphTeam.ts, "team") served as `LANGGRAPH_GRAPH=team npm run
 * demo:langgraph` serves it, in Chromium on both pages: asked to fact-check, the writer's tool throws; the answer is
 * the supervisor's words, each handoff reads as one, each worker is a step of its own with its calls under it, the
 * writer's failed call failed and the writer's words in its step. Screenshots go to docs/screenshots/supervisor-*.png.
 */
let stopAgent: () => Promise<void> = async () => undefined;
const browsing = useBrowserOn<WebDemo>(async () => {
  process.env.LANGGRAPH_GRAPH = "team";
  const agent = await serveFramework("langgraph").finally(() => delete process.env.LANGGRAPH_GRAPH);
  stopAgent = agent.close;
  const demo = await startWebDemo(agent.url, agent.threads);
  return { ...demo, close: () => demo.close().finally(stopAgent) };
});
const SCREENSHOTS = join(__dirname, "../../docs/screenshots");
const messages = (page: Page) => page.locator('[data-testid^="message-by-index"]');
const STEPS = ["1: Handing off to researcher", "2: researcher", "3: researcher: search", "4: Handing off to writer", "5: writer", "6: writer: check_facts"];

describe.each([
  ["web component", "", "web"],
  ["React", "react", "react"],
])("a LangGraph supervisor with two workers, one failing, in Chromium on the %s page", (_renderer, query, slug) => {
  it("shows the supervisor's words as the answer, each handoff and worker as a step, the writer's failed call failed", async () => {
    const { page, send } = await browsing.open(query);
    await send("Why are there tides? Please fact-check it.");
    const answer = messages(page);
    await answer.getByText("Final answer: the moon's pull makes the tides.").waitFor({ timeout: 45_000 });
    // The answer's end (its final response) draws the message again, its chain of thought closed: wait for it.
    await page.evaluate(() => (window as unknown as { adapter: { whenIdle(): Promise<void> } }).adapter.whenIdle());
    // The workers' words are their steps', never the answer.
    const shown = (await answer.allInnerTexts()).join("\n");
    expect(shown).not.toContain("Research notes");
    expect(shown).not.toContain("Transferring back to supervisor");

    await answer.getByText("How did I get this answer?").click();
    for (const label of STEPS) await answer.getByText(label, { exact: true }).waitFor();
    await answer.getByText("6: writer: check_facts", { exact: true }).click();
    await answer.getByText("The tool call ended without a result").waitFor();
    await answer.getByLabel("Failed").waitFor();
    await answer.getByText("5: writer", { exact: true }).click();
    await answer.getByText("I could not check the draft: the fact-checker failed.").waitFor();
    await answer.getByText("Worker", { exact: true }).filter({ visible: true }).waitFor();
    await page.setViewportSize({ width: 1100, height: 1100 }); // the whole chain in view
    await page.waitForTimeout(300); // the screenshot is for people
    // The answer at the top of the chat, its chain under it (the React page's chat is a smaller float).
    await answer.getByText("Final answer: the moon's pull makes the tides.").evaluate((text) => text.scrollIntoView({ block: "start" }));
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOTS, `supervisor-${slug}.png`) });
  }, 90_000);
});
