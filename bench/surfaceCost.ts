/**
 * What an A2UI surface costs the chat, against a decision card (`npm run bench:browser -- --only=surface`): the demo
 * page in Chromium, a fresh page per run, warmed by a first answer. Then one turn that ends in the item: the booking
 * form from the agent behind the real A2UI middleware ("Book a room": building, painted, painted with its data), or the
 * scripted demo agent's decision card ("Please delete my old files"). Measured from Enter until the item is drawn
 * (its button in the page) and the page has settled: the main thread's task time (Chrome's `TaskDuration`), the
 * longest task, and the `addMessageChunk` calls. Each agent's plain answer is measured the same way: the item's own
 * cost is the difference.
 */
import type { Browser, Locator, Page } from "playwright-core";
import { serveFramework } from "../examples/frameworks/serve";
import { startWebDemo } from "../examples/web/serve";
import { openChatPage, PAGE_OPTIONS } from "../spec/e2e/browser";
import { installProbe, readProbe } from "../spec/e2e/probe";

export interface ItemCostRun {
  /** Main-thread task time from Enter until drawn and settled, ms. */
  busyMs: number;
  longestTask: number;
  chunks: number;
}

interface ItemTurn {
  warmUp: { ask: string; reply: string };
  ask: string;
  /** What is in the page once the turn is shown: the item's button, or the text of a turn with no item. */
  drawn: (page: Page) => Locator;
}

const SURFACE: ItemTurn = { warmUp: { ask: "Hello", reply: "Ask me to book a room" }, ask: "Book a room", drawn: (page) => page.locator(".cagr-a2ui").getByRole("button", { name: "Book", exact: true }) };
const CARD: ItemTurn = { warmUp: { ask: "Hi there", reply: "through carbon-agui-rx" }, ask: "Please delete my old files", drawn: (page) => page.locator(".cagr-decision-card").getByRole("button", { name: "Approve", exact: true }) };
/** The same agents' plain answers: what a turn costs without the item. */
const SURFACE_AGENT_TEXT: ItemTurn = { ...SURFACE, ask: "Hello again", drawn: (page) => page.locator('[data-testid^="message-by-index"]').getByText("Ask me to book a room").nth(1) };
const CARD_AGENT_TEXT: ItemTurn = { ...CARD, ask: "Hi there again", drawn: (page) => page.locator('[data-testid^="message-by-index"]').getByText("through carbon-agui-rx").nth(1) };

async function measureTurn(browser: Browser, url: string, turn: ItemTurn): Promise<ItemCostRun> {
  const page = await browser.newPage(PAGE_OPTIONS);
  try {
    const chat = await openChatPage(page, `${url}?persist=off`);
    await chat.send(turn.warmUp.ask);
    await page.locator('[data-testid^="message-by-index"]').getByText(turn.warmUp.reply).first().waitFor();
    await page.waitForTimeout(1_000);
    await installProbe(page);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable");
    const taskTime = async () => ((await cdp.send("Performance.getMetrics")).metrics.find((metric) => metric.name === "TaskDuration")?.value ?? 0) * 1000;
    const before = await taskTime();
    await chat.send(turn.ask);
    await turn.drawn(page).first().waitFor({ timeout: 60_000 });
    await page.waitForTimeout(1_000);
    const busyMs = (await taskTime()) - before;
    const probe = await readProbe(page);
    return { busyMs, longestTask: probe.longestTask, chunks: probe.chunks };
  } finally {
    await page.close();
  }
}

/** `runs` turns of each, interleaved: the surface's (behind the real middleware) and the card's (the scripted demo agent), and each agent's plain answer. */
export async function measureItemCosts(browser: Browser, runs: number): Promise<Record<"surface" | "surfaceAgentText" | "card" | "cardAgentText", ItemCostRun[]>> {
  const agent = await serveFramework("a2ui");
  const a2uiDemo = await startWebDemo(agent.url);
  const scriptedDemo = await startWebDemo();
  const measured = { surface: [] as ItemCostRun[], surfaceAgentText: [] as ItemCostRun[], card: [] as ItemCostRun[], cardAgentText: [] as ItemCostRun[] };
  try {
    for (let run = 0; run < runs; run++) {
      measured.surface.push(await measureTurn(browser, a2uiDemo.url, SURFACE));
      measured.surfaceAgentText.push(await measureTurn(browser, a2uiDemo.url, SURFACE_AGENT_TEXT));
      measured.card.push(await measureTurn(browser, scriptedDemo.url, CARD));
      measured.cardAgentText.push(await measureTurn(browser, scriptedDemo.url, CARD_AGENT_TEXT));
    }
    return measured;
  } finally {
    await scriptedDemo.close();
    await a2uiDemo.close();
    await agent.close();
  }
}
