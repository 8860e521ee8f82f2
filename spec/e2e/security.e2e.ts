import { expect as expectPage } from "@jest/globals";
import type { RunAgentInput } from "@ag-ui/core";
import { ev, scriptedAgent, type ScriptedAgent, type SseResponse } from "carbon-agui-rx/testing";
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { useBrowserDemo } from "./browser";

/**
 * Issue 19's payloads, streamed by a real AG-UI endpoint through the demo page
 * (real Carbon 1.9.1, our adapter with its default options). Each payload,
 * when it runs, calls the page's `pwned(name)` or loads something from a
 * second loopback server (another origin) that counts requests.
 */
const textPayloads = (other: string) => [
  `<img src=x onerror="pwned('img onerror')">`,
  `<iframe srcdoc="<script>parent.pwned('iframe srcdoc')</script>"></iframe>`,
  `<details open ontoggle="pwned('details ontoggle')"><summary>details</summary>inside</details>`,
  `<object data="data:text/html,<script>new Image().src='${other}/object'</script>"></object>`,
  `<a href="javascript:pwned('a href')">click the link</a>`,
  `<svg><animate onbegin="pwned('svg animate')" attributeName="x" dur="1s" /></svg>`,
  `<form action="${other}/form"><input name="q" value="secret"><button>Send the form</button></form>`,
  `<img src="${other}/pixel.png">`,
  `![tracking pixel](${other}/markdown-pixel.png)`,
  `[open me](https://example.com/){{target="_top"}}`,
  "Code stays code: `<b>bold?</b>` and\n\n```html\n<img src=x onerror=\"pwned('code block')\">\n```\n",
];

const itemPayloads = (other: string) => {
  const dataIframe = { response_type: "iframe", source: `data:text/html,<script>new Image().src='${other}/data-iframe'</script>` };
  const scriptButton = { response_type: "button", button_type: "url", label: "Unsafe button", url: "javascript:pwned('button url')" };
  return [
    dataIframe,
    scriptButton,
    { response_type: "card", body: [{ response_type: "text", text: "Card with an unsafe iframe" }, dataIframe], footer: [scriptButton] },
    { response_type: "grid", columns: [{ width: "1" }], rows: [{ cells: [{ items: [scriptButton] }] }] },
    // Safe ones, which must still render.
    { response_type: "card", body: [{ response_type: "text", text: "A **safe** card" }], footer: [{ response_type: "button", button_type: "url", label: "Safe docs link", url: "https://example.com/docs" }] },
  ];
};

/** The whole message, each payload cut into deltas of 5 characters, so tags arrive in pieces. */
function answer(sse: SseResponse, messageId: string, text: string) {
  sse.send(ev.textStart(messageId));
  for (let at = 0; at < text.length; at += 5) sse.send(ev.text(messageId, text.slice(at, at + 5)));
  sse.send(ev.textEnd(messageId));
}

describe("agent output cannot run script in the page (Chromium, real Carbon 1.9.1, default options)", () => {
  let other: Server;
  const otherRequests: string[] = [];
  let otherUrl: string;
  let agent: ScriptedAgent;

  beforeAll(async () => {
    other = createServer((request, response) => {
      otherRequests.push(`${request.method} ${request.url}`);
      response.writeHead(200, { "content-type": "text/plain" });
      response.end("counted");
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    agent = await scriptedAgent((input: RunAgentInput, sse) => {
      const asked = String((input.messages.at(-1) as { content?: unknown } | undefined)?.content ?? "");
      sse.send(ev.runStarted(input.runId, input.threadId));
      if (asked === "control") {
        answer(sse, "control", `<img src=x onerror="pwned('control')"> [open me](https://example.com/){{target="_top"}}`);
      } else {
        textPayloads(otherUrl).forEach((payload, index) => answer(sse, `payload-${index}`, payload));
        sse.send(ev.carbonItems(...(itemPayloads(otherUrl) as Parameters<typeof ev.carbonItems>)));
      }
      sse.send(ev.runFinished({ threadId: input.threadId, runId: input.runId }));
      sse.end();
    });
  });
  afterAll(async () => {
    await agent?.close();
    other?.closeAllConnections();
    await new Promise<void>((resolve) => (other ? other.close(() => resolve()) : resolve()));
  });
  const demo = useBrowserDemo(() => agent.url);

  /** A page whose `pwned(name)` records what ran, and which records navigations and pop-ups. */
  async function open(query = "") {
    const navigations: string[] = [];
    const popups: string[] = [];
    const chat = await demo.open(query, async (page) => {
      await page.addInitScript(() => {
        const ran: string[] = [];
        Object.assign(window, { ran, pwned: (what: string) => ran.push(what) });
      });
      page.on("framenavigated", (frame) => {
        if (frame === page.mainFrame()) navigations.push(frame.url());
      });
      page.on("popup", (popup) => popups.push(popup.url()));
    });
    navigations.length = 0;
    const ran = () => chat.page.evaluate(() => (window as unknown as { ran: string[] }).ran);
    return { ...chat, navigations, popups, ran };
  }

  const messages = (page: Page) => page.locator('[data-testid^="message-by-index"]');

  it("runs the control: with html: true the same kind of payload does run (so this test can fail)", async () => {
    const { page, send, ran } = await open("?html=on");
    await send("control");
    await page.waitForFunction(() => (window as unknown as { ran: string[] }).ran.length > 0, undefined, { timeout: 10_000 });
    expectPage(await ran()).toEqual(["control"]);
    // Carbon's {{…}} attributes: this link would replace the page when clicked.
    expectPage(await messages(page).getByRole("link", { name: "open me" }).getAttribute("target")).toBe("_top");
  });

  it("shows every payload as text: nothing runs, navigates or fetches from another origin; safe items and code still render", async () => {
    const { page, send, ran, navigations, popups } = await open();
    const before = otherRequests.length;
    await send("payloads");
    await messages(page).getByText("Safe docs link").waitFor();
    await messages(page).getByText(`<img src=x onerror="pwned('img onerror')">`).waitFor();

    // Click whatever a payload could have turned into a link or a button (the markdown image became a link on purpose: the person may open it).
    for (const label of ["click the link", "Send the form", "details"]) {
      const target = messages(page).getByText(label).first();
      if (await target.count()) await target.click();
    }
    await page.waitForTimeout(1500); // an animation's begin, a lazy image, a submitted form

    expectPage(await ran()).toEqual([]);
    expectPage(otherRequests.slice(before)).toEqual([]);
    expectPage(navigations).toEqual([]);
    expectPage(popups).toEqual([]);
    // The page is where it was: the demo only keeps its thread in the query (history.replaceState, no navigation).
    const url = new URL(page.url());
    expectPage([`${url.origin}${url.pathname}`, [...url.searchParams.keys()]]).toEqual([demo.url, ["thread"]]);

    // The HTML reads as text; the unsafe items were refused; the safe card and the code render.
    await messages(page).getByText("<form action=", { exact: false }).waitFor();
    expectPage(await messages(page).getByText("Unsafe button").count()).toBe(0);
    expectPage(await messages(page).locator("iframe").count()).toBe(0);
    await messages(page).getByText("A safe card", { exact: false }).first().waitFor();
    await messages(page).locator("code", { hasText: "<b>bold?</b>" }).waitFor();
    await messages(page).getByRole("link", { name: "tracking pixel" }).waitFor();
    expectPage(await messages(page).getByRole("link", { name: "open me" }).getAttribute("target")).toBe("_blank");
    expectPage(await page.locator("cds-aichat-code-snippet").last().evaluate((snippet) => (snippet as unknown as { code: string }).code)).toBe(`<img src=x onerror="pwned('code block')">\n`);

    // Saved with the other browser tests' screenshots (git-ignored); docs/screenshots keeps the one we looked at.
    const screenshots = join(__dirname, "../../.tmp/screenshots");
    mkdirSync(screenshots, { recursive: true });
    // Tall enough for the whole answer: the payloads as text, the code block, the safe card.
    await page.setViewportSize({ width: 1100, height: 1700 });
    await page.locator("cds-aichat-code-snippet").last().scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(screenshots, "security-payloads-as-text.png") });
  });
});
