import type { Frame, Page } from "playwright-core";
import { serveMcpAppsDemo } from "../../examples/frameworks/mcpAppsDemo";
import { startWebDemo, type WebDemo } from "../../examples/web/serve";
import { docsScreenshot, scrollChatToEnd, useBrowserOn } from "./browser";

/**
 * MCP Apps as `npm run demo:mcp-apps` serves them, in Chromium on both pages: the official example server's app
 * (`@modelcontextprotocol/server-basic-vanillajs`, on the ext-apps `App` SDK) behind the real
 * `@ag-ui/mcp-apps-middleware`, drawn in the chat from the sandbox proxy on a second loopback origin; its button calls
 * the server and shows the time, its message is answered by the agent, a reload draws it again and its button still
 * works. A hostile app reaches nothing of the page. Screenshots go to docs/screenshots/mcp-app-*.png.
 */
let sandboxUrl = "";
const browsing = useBrowserOn<WebDemo>(async () => {
  const apps = await serveMcpAppsDemo();
  sandboxUrl = apps.sandboxUrl;
  const demo = await startWebDemo(apps.url, undefined, { MCP_SANDBOX_URL: apps.sandboxUrl });
  return { ...demo, close: () => demo.close().finally(() => apps.close()) };
});
const messages = (page: Page) => page.locator('[data-testid^="message-by-index"]');
const tile = (page: Page) => page.locator(".cagr-mcp-app").last();

/** The frame the app's document runs in: the sandbox proxy's own frame, inside the tile's. */
async function appFrame(page: Page, index = -1): Promise<Frame> {
  const sandboxOrigin = new URL(sandboxUrl).origin;
  for (let tries = 0; tries < 200; tries++) {
    const proxies = page.frames().filter((frame) => frame.url().startsWith(sandboxOrigin));
    const apps = proxies.flatMap((proxy) => proxy.childFrames());
    const app = apps.at(index);
    if (app) return app;
    await page.waitForTimeout(50);
  }
  throw new Error("No MCP App frame in the page");
}

/** The app frame once it shows the server's time: its tool's result has reached it. */
async function showingTime(page: Page, index = -1): Promise<Frame> {
  const app = await appFrame(page, index);
  await app.locator("#server-time").filter({ hasText: /\d{4}-\d\d-\d\dT/ }).waitFor();
  return app;
}

/**
 * The example app drawn in a new conversation, once its tool's result has reached it, and the chat scrolled to its
 * end: the app is taller than the room under the question Carbon keeps at the top, so until then Carbon's scroll-down
 * button lies over the app's last button (a click there, at the button's centre, would press Carbon's).
 */
async function askedTheTime(): Promise<{ page: Page; app: Frame }> {
  const { page, send } = await browsing.open();
  await send("What time is it?");
  const app = await showingTime(page);
  await scrollChatToEnd(page);
  return { page, app };
}

describe.each([
  ["web component", "", "web"],
  ["React", "react", "react"],
  ["web component, dark theme", "?theme=g100", "web-dark"],
])("an MCP App, in Chromium on the %s page", (_renderer, query, slug) => {
  it("draws the example server's app from the sandbox's origin, calls the server from it, sends its message to the agent, and draws it again after a reload", async () => {
    const { page, send } = await browsing.open(query);
    await send("What time is it?");
    await tile(page).locator("iframe.cagr-mcp-app-frame").waitFor();
    const app = await appFrame(page);
    // The app's document runs in an opaque origin inside the proxy, itself on the sandbox's origin.
    expect(await app.evaluate(() => window.origin)).toBe("null");
    expect(new URL(app.parentFrame()!.url()).origin).toBe(new URL(sandboxUrl).origin);
    expect(new URL(app.parentFrame()!.url()).origin).not.toBe(new URL(page.url()).origin);
    // The tool's result reached the app once it initialized: it shows the server's time.
    await app.locator("#server-time").filter({ hasText: /\d{4}-\d\d-\d\dT/ }).waitFor();
    const first = await app.locator("#server-time").textContent();
    await page.waitForTimeout(20);
    await app.locator("#get-time-btn").click();
    await app.locator("#server-time").filter({ hasNotText: first! }).waitFor();
    await docsScreenshot(page, `mcp-app-${slug}`);

    await app.locator("#message-text").fill("Thanks, app");
    await app.locator("#send-message-btn").click();
    await messages(page).getByText("You said: Thanks, app").waitFor();

    await page.waitForFunction(() => new URLSearchParams(location.search).has("thread"));
    await page.reload();
    await messages(page).getByText("You said: Thanks, app").waitFor();
    const restored = await showingTime(page, 0);
    const before = await restored.locator("#server-time").textContent();
    await page.waitForTimeout(20);
    await restored.locator("#get-time-btn").click();
    await restored.locator("#server-time").filter({ hasNotText: before! }).waitFor();
  });
});

describe("an MCP App as the chat's theme is switched, in Chromium", () => {
  it("follows the switch: the app hears the new theme and Carbon's colors of it", async () => {
    const { page, app } = await askedTheTime();
    const look = () => app.evaluate(() => ({ theme: document.documentElement.dataset.theme, background: document.documentElement.style.getPropertyValue("--color-background-primary") }));
    expect(await look()).toEqual({ theme: "light", background: "#f4f4f4" });
    await page.evaluate(() => ((document.querySelector("cds-aichat-custom-element") as HTMLElement & { injectCarbonTheme: string }).injectCarbonTheme = "g100"));
    await app.waitForFunction(() => document.documentElement.dataset.theme === "dark");
    expect(await look()).toEqual({ theme: "dark", background: "#262626" });
    await docsScreenshot(page, "mcp-app-theme-switched");
  });
});

describe("an MCP App's link, in Chromium", () => {
  it("opens only once the person agrees in the tile, in a new tab without the page as its opener", async () => {
    const { page, app } = await askedTheTime();
    const popups: string[] = [];
    page.context().on("page", (opened) => popups.push(opened.url()));
    await app.locator("#open-link-btn").click();
    const prompt = tile(page).locator(".cagr-mcp-app-prompt");
    await prompt.getByText("https://modelcontextprotocol.io/").waitFor();
    await docsScreenshot(page, "mcp-app-link");
    await prompt.getByRole("button", { name: "Cancel" }).click();
    await prompt.waitFor({ state: "hidden" });
    expect(popups).toEqual([]);
    await app.locator("#open-link-btn").click();
    const opened = page.context().waitForEvent("page");
    await prompt.getByRole("button", { name: "Open" }).click();
    const tab = await opened;
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    await tab.close();
  });
});

describe("a hostile MCP App, in Chromium", () => {
  it("reaches nothing of the page: no cookies, DOM, storage, fetch, top navigation, spoofed message or model-only tool", async () => {
    const { page, send } = await browsing.open("", async (page) => {
      // On both hosts: the page's and the sandbox's (a cookie is the host's, whatever its port).
      await page.context().addCookies(["http://127.0.0.1/", "http://localhost/"].map((url) => ({ name: "session", value: "secret", url })));
    });
    const warnings: string[] = [];
    page.on("console", (message) => message.type() === "warning" && warnings.push(message.text()));
    const pageUrl = page.url();
    await send(`probe ${new URL(pageUrl).origin}/`);
    const probe = await appFrame(page);
    await probe.locator('[data-probe="done"]').waitFor();
    const said = Object.fromEntries(await probe.locator("li[data-probe]").evaluateAll((items) => items.map((item) => [(item as HTMLElement).dataset.probe, item.textContent])));
    expect(said).toMatchObject({
      cookie: expect.stringMatching(/^cookie: blocked/),
      "parent-dom": expect.stringMatching(/blocked/),
      "top-dom": expect.stringMatching(/blocked/),
      storage: expect.stringMatching(/blocked/),
      fetch: expect.stringMatching(/blocked/),
      "model-only-tool": "model-only-tool: refused",
    });
    await page.waitForTimeout(500);
    expect(page.url()).toBe(pageUrl);
    // The spoofed message reached no conversation, and the proxy kept the app's document.
    expect(await messages(page).getByText("spoofed by the app").count()).toBe(0);
    expect(await probe.locator("#replaced").count()).toBe(0);
    expect(warnings.some((text) => text.includes("delete_everything"))).toBe(true);
    await docsScreenshot(page, "mcp-app-probe");
  });
});

describe("an MCP App that floods the page, in Chromium", () => {
  it("is cut off with a notice in its tile, and the chat goes on", async () => {
    const { page, send } = await browsing.open();
    await send("probe flood");
    await tile(page).getByText("This app was stopped: it sent more than 100 messages in a second.").waitFor();
    expect(await tile(page).locator("iframe").count()).toBe(0);
    await send("Still there?");
    await messages(page).getByText("You said: Still there?").waitFor();
  });
});
