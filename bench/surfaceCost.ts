/**
 * What an A2UI surface costs the chat, against a decision card (`npm run bench:browser -- --only=surface`): the demo
 * page in Chromium, a fresh page per run, warmed by a first answer. Then one turn of the scripted demo agent of the
 * same shape, a tool call's step and its item: the booking form ("Show me a booking form": building, painted, painted
 * with its data, as the A2UI middleware sends them), a surface showing what the card shows ("Show me an approval
 * form": a question, the arguments, three buttons), or a decision card ("Please delete my old files"); and, for the
 * record, the same form from the booking agent behind the real middleware; and an MCP App of about the form's height
 * (the official basic-vanillajs example behind the real MCP Apps middleware, in the sandbox on a second loopback
 * origin and site, which Chromium runs in a process of its own), drawn once it has initialized. The form and the app
 * are also measured undrawn (the page's `?surfaces=off`: the same turn, its step, no item), so what the item itself
 * costs is the difference, the rest of the two turns (their steps, the app's tool result) aside.
 *
 * Each kind is measured twice: as the first item of its kind in the page (its code runs for the first time), and as
 * a later one (a turn of its kind was shown and answered before). The window is the same for every turn, Enter
 * plus 3 s, so what is measured does not depend on how soon the item comes; the item must be drawn by then. Carbon
 * keeps its hidden typing indicator animating between answers (about 90 ms of main-thread time a second here, on
 * any page with Carbon 1.9.1); those animations are paused first, so the window holds the turn's own work. Measured:
 * the main thread's task time and script time (Chrome's `TaskDuration`, `ScriptDuration`), its CPU time (`ThreadTime`:
 * task time is wall-clock, so it also counts what the thread waited for a core while other processes ran, as an MCP
 * App's own processes do), the longest task, and the `addMessageChunk` calls.
 */
import type { Browser, Page } from "playwright-core";
import { serveMcpAppsDemo } from "../examples/frameworks/mcpAppsDemo";
import { serveFramework } from "../examples/frameworks/serve";
import { startWebDemo } from "../examples/web/serve";
import { openChatPage, PAGE_OPTIONS, type ChatPage } from "../spec/e2e/browser";
import { installTaskProbe, readProbe } from "../spec/e2e/probe";

export interface ItemCostRun {
  /** Main-thread task time in the window, ms. */
  busyMs: number;
  /** Of it, running script, ms. */
  scriptMs: number;
  /** The main thread's CPU time in the window, ms: its own work, without the time it waited for a core. */
  cpuMs: number;
  /** The CPU time of the browser's other renderer processes in the window (an MCP App's sandbox and the app), ms. */
  othersCpuMs: number;
  longestTask: number;
  chunks: number;
}

/** An item in the page: its element's class, and the label of a button it shows once drawn (an MCP App: none in the page, its own document is framed). */
interface Item {
  ask: string;
  selector: string;
  button?: string;
}

interface ItemTurn extends Item {
  warmUp: { ask: string; reply: string };
  /**
   * A turn shown and answered (its button pressed, the reply shown) before the measured one; an MCP App's turn
   * (no button, no reply), shown: its activity in the thread, and on a page that draws it, the app drawn.
   */
  before?: Item & { reply?: string };
  /** Measured on the page that draws no A2UI surface and no MCP App. */
  undrawn?: true;
}

const WINDOW_MS = 3_000;
const SCRIPTED_WARM_UP = { ask: "Hi there", reply: "through carbon-agui-rx" };
const BOOKING_FORM: Item = { ask: "Show me a booking form", selector: ".cagr-a2ui", button: "Book" };
const APPROVAL_SURFACE: Item = { ask: "Show me an approval form", selector: ".cagr-a2ui", button: "Approve" };
const CARD: Item = { ask: "Please delete my old files", selector: ".cagr-decision-card", button: "Approve" };
const DELETED = "Done: deleted";
/** The official basic-vanillajs MCP App (a form of about the booking form's height) behind the real middleware, in the sandbox on a second origin. */
const MCP_APP: Item = { ask: "What time is it?", selector: ".cagr-mcp-app" };
const APPS_WARM_UP = { ask: "Hello", reply: "You said: Hello" };

export const ITEM_TURNS = {
  form: { ...BOOKING_FORM, warmUp: SCRIPTED_WARM_UP },
  approvalSurface: { ...APPROVAL_SURFACE, warmUp: SCRIPTED_WARM_UP },
  card: { ...CARD, warmUp: SCRIPTED_WARM_UP },
  /** The booking agent behind the real middleware: its text, its arguments streamed, its progress. */
  middlewareForm: { ask: "Book a room", selector: ".cagr-a2ui", button: "Book", warmUp: { ask: "Hello", reply: "Ask me to book a room" } },
  laterApprovalSurface: { ...APPROVAL_SURFACE, warmUp: SCRIPTED_WARM_UP, before: { ...APPROVAL_SURFACE, reply: DELETED } },
  laterCard: { ...CARD, warmUp: SCRIPTED_WARM_UP, before: { ...CARD, reply: DELETED } },
  laterForm: { ...BOOKING_FORM, warmUp: SCRIPTED_WARM_UP, before: { ...APPROVAL_SURFACE, reply: DELETED } },
  mcpApp: { ...MCP_APP, warmUp: APPS_WARM_UP },
  formUndrawn: { ...BOOKING_FORM, warmUp: SCRIPTED_WARM_UP, undrawn: true },
  mcpAppUndrawn: { ...MCP_APP, warmUp: APPS_WARM_UP, undrawn: true },
  /** An MCP App after one was shown: the sandbox's site and the opaque frame's processes already running for the page. */
  laterMcpApp: { ...MCP_APP, warmUp: APPS_WARM_UP, before: MCP_APP },
  laterMcpAppUndrawn: { ...MCP_APP, warmUp: APPS_WARM_UP, before: MCP_APP, undrawn: true },
} satisfies Record<string, ItemTurn>;

export type ItemTurnName = keyof typeof ITEM_TURNS;

/** Pauses the animations Carbon keeps running in its hidden typing indicator. Plain JavaScript, as the page runs it. */
const PAUSE_HIDDEN_INDICATOR = `(() => {
  const hidden = (node) => {
    for (let at = node; at; at = at.parentNode || at.host) if (at.classList && at.classList.contains("cds-aichat--typing-indicator--hidden")) return true;
    return false;
  };
  const pause = (root) => {
    for (const animation of root.getAnimations()) if (animation.effect && animation.effect.target && hidden(animation.effect.target)) animation.pause();
    for (const element of root.querySelectorAll("*")) if (element.shadowRoot) pause(element.shadowRoot);
  };
  pause(document);
})()`;

/** The item's buttons, Carbon's or native. */
const buttonsOf = ({ selector }: Item) => `${selector} cds-button, ${selector} button`;

/**
 * Whether the page shows `count` of the item: its button is in the chat element's light DOM, where the renderers slot
 * items; an MCP App, once it has initialized and asked for its height (its frame is no longer the tile's first guess).
 * A page expression.
 */
const drawn = (item: Item, count: number) =>
  item.button === undefined
    ? `[...document.querySelectorAll(${JSON.stringify(`${item.selector} iframe`)})].filter((frame) => frame.style.height !== "144px").length >= ${count}`
    : `[...document.querySelectorAll(${JSON.stringify(buttonsOf(item))})].filter((element) => element.textContent.trim() === ${JSON.stringify(item.button)}).length >= ${count}`;

/** A page expression: whether the thread holds `count` MCP Apps' activities (drawn or not). */
const mcpAppsInThread = (count: number) => `[...window.adapter.activities.values()].filter((activity) => activity.activityType === "mcp-apps").length >= ${count}`;

async function showAndAnswer(page: Page, chat: ChatPage, before: NonNullable<ItemTurn["before"]>, undrawn: boolean) {
  await chat.send(before.ask);
  if (before.button === undefined) {
    await page.waitForFunction(undrawn ? mcpAppsInThread(1) : drawn(before, 1), undefined, { timeout: 60_000 });
    return;
  }
  const button = page.locator(buttonsOf(before)).filter({ hasText: before.button }).first();
  await button.click({ timeout: 60_000 });
  if (before.reply !== undefined) await page.locator('[data-testid^="message-by-index"]').getByText(before.reply).first().waitFor({ timeout: 60_000 });
}

async function measureTurn(browser: Browser, url: string, turn: ItemTurn): Promise<ItemCostRun> {
  const page = await browser.newPage(PAGE_OPTIONS);
  try {
    const chat = await openChatPage(page, `${url}?persist=off${turn.undrawn ? "&surfaces=off" : ""}`);
    await chat.send(turn.warmUp.ask);
    await page.locator('[data-testid^="message-by-index"]').getByText(turn.warmUp.reply).first().waitFor();
    if (turn.before) await showAndAnswer(page, chat, turn.before, turn.undrawn === true);
    await page.waitForTimeout(1_000);
    await page.evaluate(PAUSE_HIDDEN_INDICATOR);
    await installTaskProbe(page);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable");
    const browserCdp = await browser.newBrowserCDPSession();
    /** The page's metrics, and the CPU time of every renderer process (ms). */
    const metrics = async () => {
      const page = new Map((await cdp.send("Performance.getMetrics")).metrics.map((metric) => [metric.name, metric.value * 1000]));
      const { processInfo } = (await browserCdp.send("SystemInfo.getProcessInfo")) as { processInfo: { type: string; cpuTime: number }[] };
      page.set("renderers", processInfo.filter((process) => process.type === "renderer").reduce((sum, process) => sum + process.cpuTime * 1000, 0));
      return page;
    };
    const before = await metrics();
    await chat.send(turn.ask);
    await page.waitForTimeout(WINDOW_MS);
    const after = await metrics();
    await browserCdp.detach();
    // A turn that asks as the one before it draws a second item of the kind.
    const shown = turn.before?.ask === turn.ask ? 2 : 1;
    if (!turn.undrawn && !(await page.evaluate(drawn(turn, shown)))) throw new Error(`"${turn.ask}": the item was not drawn within ${WINDOW_MS} ms of Enter`);
    const { chunks, longestTask } = await readProbe(page);
    const spent = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
    return { busyMs: spent("TaskDuration"), scriptMs: spent("ScriptDuration"), cpuMs: spent("ThreadTime"), othersCpuMs: spent("renderers") - spent("ProcessTime"), chunks, longestTask };
  } finally {
    await page.close();
  }
}

/** `runs` turns of each kind in `names` (default all), interleaved. */
export async function measureItemCosts(browser: Browser, runs: number, names = Object.keys(ITEM_TURNS) as ItemTurnName[]): Promise<Partial<Record<ItemTurnName, ItemCostRun[]>>> {
  // The booking agent behind the real middleware, and a demo page on it, only when its turn is measured.
  const agent = names.includes("middlewareForm") ? await serveFramework("a2ui") : undefined;
  const a2uiDemo = agent && (await startWebDemo(agent.url));
  // The MCP Apps demo (its servers, the agent behind the middleware, the sandbox), likewise.
  const onApps = (name: ItemTurnName) => ITEM_TURNS[name].selector === MCP_APP.selector;
  const apps = names.some(onApps) ? await serveMcpAppsDemo() : undefined;
  const appsDemo = apps && (await startWebDemo(apps.url, undefined, { MCP_SANDBOX_URL: apps.sandboxUrl }));
  const scriptedDemo = await startWebDemo();
  const urlOf = (name: ItemTurnName) => (name === "middlewareForm" ? a2uiDemo!.url : onApps(name) ? appsDemo!.url : scriptedDemo.url);
  const measured = Object.fromEntries(names.map((name) => [name, [] as ItemCostRun[]])) as Record<ItemTurnName, ItemCostRun[]>;
  try {
    for (let run = 0; run < runs; run++) {
      for (const name of names) measured[name].push(await measureTurn(browser, urlOf(name), ITEM_TURNS[name]));
    }
    return measured;
  } finally {
    await scriptedDemo.close();
    await a2uiDemo?.close();
    await agent?.close();
    await appsDemo?.close();
    await apps?.close();
  }
}
