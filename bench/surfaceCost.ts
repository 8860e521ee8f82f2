/**
 * What an A2UI surface costs the chat, against a decision card (`npm run bench:browser -- --only=surface`): the demo
 * page in Chromium, a fresh page per run, warmed by a first answer. Then one turn of the scripted demo agent of the
 * same shape, a tool call's step and its item: the booking form ("Show me a booking form": building, painted, painted
 * with its data, as the A2UI middleware sends them), a surface showing what the card shows ("Show me an approval
 * form": a question, the arguments, three buttons), or a decision card ("Please delete my old files"); and, for the
 * record, the same form from the booking agent behind the real middleware. Measured from Enter until the item is
 * drawn (its button in the page) and the page has settled: the main thread's task time (Chrome's `TaskDuration`), the
 * longest task, and the `addMessageChunk` calls.
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

const formButton = (page: Page) => page.locator(".cagr-a2ui").getByRole("button", { name: "Book", exact: true });
const cardButton = (page: Page) => page.locator(".cagr-decision-card").getByRole("button", { name: "Approve", exact: true });
const SCRIPTED_WARM_UP = { ask: "Hi there", reply: "through carbon-agui-rx" };
/** The scripted agent's two turns of the same shape: a tool call's step and the item it brings, no text. */
const FORM: ItemTurn = { warmUp: SCRIPTED_WARM_UP, ask: "Show me a booking form", drawn: formButton };
/** A surface that shows what the card shows: a question, the arguments, three answers. */
const APPROVAL_SURFACE: ItemTurn = { warmUp: SCRIPTED_WARM_UP, ask: "Show me an approval form", drawn: (page) => page.locator(".cagr-a2ui").getByRole("button", { name: "Approve", exact: true }) };
const CARD: ItemTurn = { warmUp: SCRIPTED_WARM_UP, ask: "Please delete my old files", drawn: cardButton };
/** The same form from the booking agent behind the real middleware: its text, its arguments streamed, its progress. */
const MIDDLEWARE_FORM: ItemTurn = { warmUp: { ask: "Hello", reply: "Ask me to book a room" }, ask: "Book a room", drawn: formButton };

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

/** `runs` turns of each, interleaved: the scripted agent's booking form, its approval surface and its card, and the middleware's form. */
export async function measureItemCosts(browser: Browser, runs: number): Promise<Record<"form" | "approvalSurface" | "card" | "middlewareForm", ItemCostRun[]>> {
  const agent = await serveFramework("a2ui");
  const a2uiDemo = await startWebDemo(agent.url);
  const scriptedDemo = await startWebDemo();
  const measured = { form: [] as ItemCostRun[], approvalSurface: [] as ItemCostRun[], card: [] as ItemCostRun[], middlewareForm: [] as ItemCostRun[] };
  try {
    for (let run = 0; run < runs; run++) {
      measured.form.push(await measureTurn(browser, scriptedDemo.url, FORM));
      measured.approvalSurface.push(await measureTurn(browser, scriptedDemo.url, APPROVAL_SURFACE));
      measured.card.push(await measureTurn(browser, scriptedDemo.url, CARD));
      measured.middlewareForm.push(await measureTurn(browser, a2uiDemo.url, MIDDLEWARE_FORM));
    }
    return measured;
  } finally {
    await scriptedDemo.close();
    await a2uiDemo.close();
    await agent.close();
  }
}
