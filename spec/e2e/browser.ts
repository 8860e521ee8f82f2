import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import type { ScriptedAgent } from "carbon-agui-rx/testing";
import { startWebDemo, type WebDemo } from "../../examples/web/serve";

/** Chromium from Debian, never a downloaded browser; flags for a closed network. */
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });

export interface ChatPage {
  page: Page;
  /** Types a message into Carbon's input and sends it. */
  send(text: string): Promise<void>;
  /** Saves a screenshot of the page as .tmp/screenshots/<name>.png (git-ignored). */
  snapshot(name: string): Promise<void>;
}

const SCREENSHOTS = join(__dirname, "../../.tmp/screenshots");

/** A demo server a spec file starts once: where its page is, and how to stop it. */
interface StartedDemo {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A demo server (`start`) and one Chromium for a spec file; a fresh page per test (`query` is added to the URL,
 * `prepare` runs before it loads), closed after it whatever happened. `demo` is the server `start` gave.
 */
export function useBrowserOn<Demo extends StartedDemo>(start: () => Promise<Demo>): {
  open(query?: string, prepare?: (page: Page) => Promise<void>): Promise<ChatPage>;
  readonly demo: Demo;
} {
  let demo: Demo;
  let browser: Browser;
  const pages: Page[] = [];
  beforeAll(async () => {
    demo = await start();
    browser = await launchChromium();
  });
  afterEach(async () => {
    await Promise.all(pages.splice(0).map((page) => page.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
  });
  return {
    async open(query = "", prepare) {
      const page = await browser.newPage(PAGE_OPTIONS);
      pages.push(page);
      await prepare?.(page);
      return openChatPage(page, `${demo.url}${query}`);
    },
    get demo() {
      return demo;
    },
  };
}

/**
 * The web demo (examples/web/serve.ts) through `useBrowserOn`. `agentUrl`, read once the spec's earlier `beforeAll`s
 * ran, points the page at another AG-UI endpoint than the demo's scripted agent.
 */
export function useBrowserDemo(agentUrl?: () => string): {
  open(query?: string, prepare?: (page: Page) => Promise<void>): Promise<ChatPage>;
  readonly url: string;
  /** The demo's scripted agent (absent when `agentUrl` points elsewhere). */
  readonly agent: ScriptedAgent | undefined;
} {
  const browsing = useBrowserOn<WebDemo>(() => startWebDemo(agentUrl?.()));
  return {
    open: browsing.open,
    get url() {
      return browsing.demo.url;
    },
    get agent() {
      return browsing.demo.agent;
    },
  };
}

const DOCS_SCREENSHOTS = join(__dirname, "../../docs/screenshots");

/** Scrolls Carbon's message list to its end, as a person does with its scroll-down button. */
export const scrollChatToEnd = (page: Page): Promise<void> => page.locator(".cds-aichat--messages__wrapper").evaluate((list) => list.scrollTo({ top: list.scrollHeight }));

/** Scrolls the chat to its end and saves a screenshot for people to look at, as docs/screenshots/<name>.png. */
export async function docsScreenshot(page: Page, name: string): Promise<void> {
  await scrollChatToEnd(page);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(DOCS_SCREENSHOTS, `${name}.png`) });
}

export const PAGE_OPTIONS = { viewport: { width: 1100, height: 760 } };

/** Opens the demo at `url` in `page`, once Carbon's input is there. */
export async function openChatPage(page: Page, url: string): Promise<ChatPage> {
  await page.goto(url);
  const input = page.getByRole("textbox").first();
  await input.waitFor();
  return {
    page,
    async send(text) {
      await input.fill(text);
      // Carbon takes a message only once the answer before it has ended, as a person sees by its stop button: until
      // then Enter leaves the text in the input. Press it again until Carbon has taken the message (at most 10 s).
      for (let attempt = 0; attempt < 50; attempt++) {
        await input.press("Enter");
        if (await page.waitForFunction((element) => !((element as HTMLTextAreaElement).value ?? element?.textContent), await input.elementHandle(), { timeout: 200 }).then(() => true, () => false)) return;
      }
      throw new Error(`Carbon did not take the message "${text}" within 10 s`);
    },
    async snapshot(name) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
    },
  };
}

/**
 * Until the demo's store (IndexedDB) holds the thread the page's URL names as the page has it: every message the person
 * sent there, and every run of it ended. The adapter saves at each change of the thread's log, one save after another,
 * so the store can lag the page by a change or two (a save during a turn holds its run still open, and one a change
 * behind lacks the latest question): a reload before then shows what the store held.
 */
export const savedWithRunsEnded = (page: Page, threadId = new URL(page.url()).searchParams.get("thread")) =>
  untilTrue(page, async (id) => {
    const database = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("carbon-agui-rx");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const stored = await new Promise<{ entries?: { kind: string; ended?: string; act?: { type: string; message?: { id: string } } }[] } | undefined>((resolve, reject) => {
      const request = database.transaction("conversations").objectStore("conversations").get(`snapshot:${id}`);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    database.close();
    const entries = stored?.entries ?? [];
    const runs = entries.filter((entry) => entry.kind === "run");
    const asked = new Set(entries.flatMap((entry) => (entry.act?.type === "message" && entry.act.message ? [entry.act.message.id] : [])));
    const sent = window.adapter.messages.filter((message) => message.role === "user").map((message) => message.id);
    return runs.length > 0 && runs.every((entry) => entry.ended !== "open") && sent.every((messageId) => asked.has(messageId));
  }, threadId);

/**
 * Until `predicate` (run in the page, asynchronous) resolves true, asked again every 50 ms, for at most `timeoutMs`.
 * Playwright's `waitForFunction` takes a Promise for a truthy answer and returns at once: a check that awaits
 * (IndexedDB, the adapter's `listThreads`) needs this.
 */
export async function untilTrue<Arg>(page: Page, predicate: (arg: Arg) => Promise<boolean>, arg?: Arg, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(predicate as never, arg))) {
    if (Date.now() > deadline) throw new Error(`untilTrue: the page's check was not true within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
