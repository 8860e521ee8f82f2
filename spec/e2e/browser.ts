import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { startWebDemo, type WebDemo } from "../../examples/web/serve";

/** Chromium from Debian, never a downloaded browser; flags for a closed network. */
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

export interface ChatPage {
  page: Page;
  /** Types a message into Carbon's input and sends it. */
  send(text: string): Promise<void>;
  /** Saves a screenshot of the page as .tmp/screenshots/<name>.png (git-ignored). */
  snapshot(name: string): Promise<void>;
}

const SCREENSHOTS = join(__dirname, "../../.tmp/screenshots");

/** The demo server and one Chromium for a spec file; a fresh page per test, closed after it whatever happened. */
export function useBrowserDemo(): { open(): Promise<ChatPage> } {
  let demo: WebDemo;
  let browser: Browser;
  const pages: Page[] = [];
  beforeAll(async () => {
    demo = await startWebDemo();
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  });
  afterEach(async () => {
    await Promise.all(pages.splice(0).map((page) => page.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
  });
  return {
    async open() {
      const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
      pages.push(page);
      await page.goto(demo.url);
      const input = page.getByRole("textbox").first();
      await input.waitFor();
      return {
        page,
        async send(text) {
          await input.fill(text);
          await input.press("Enter");
        },
        async snapshot(name) {
          mkdirSync(SCREENSHOTS, { recursive: true });
          await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
        },
      };
    },
  };
}
