import { expect as expectPage } from "@jest/globals";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { startWebDemo, type WebDemo } from "../../examples/web/serve";
import { launchChromium, openChatPage, PAGE_OPTIONS } from "./browser";

const messages = (page: Page) => page.locator('[data-testid^="message-by-index"]');
/** Carbon's own line for a rejected send, which puts the blame under the person's message. */
const CARBON_GENERIC_ERROR = "There is an error with the message you just sent";

/** An agent endpoint that lets the page's origin in (CORS) and then answers every run with `status`. */
async function agentAnswering(status: number): Promise<Server> {
  const server = createServer((request, response) => {
    response.setHeader("access-control-allow-origin", "*");
    response.setHeader("access-control-allow-headers", "content-type, accept");
    if (request.method === "OPTIONS") return response.writeHead(204).end();
    response.writeHead(status, { "content-type": "text/plain" }).end("upstream is down");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe("failures in Chromium: the reason is shown once, in the answer, and the next message works", () => {
  let browser: Browser;
  const opened: { demo: WebDemo; page: Page }[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterEach(async () => {
    for (const { demo, page } of opened.splice(0)) {
      await page.close();
      await demo.close();
    }
  });
  afterAll(() => browser?.close());

  const openDemo = async (agentUrl?: string) => {
    const demo = await startWebDemo(agentUrl);
    const page = await browser.newPage(PAGE_OPTIONS);
    opened.push({ demo, page });
    return openChatPage(page, demo.url);
  };

  it("shows the agent's RUN_ERROR under the partial answer, as the only error", async () => {
    const { page, send, snapshot } = await openDemo();
    await send("Now try something that will fail");
    await messages(page).getByText("This answer is incomplete. The model is overloaded.").waitFor();
    await messages(page).getByText("Let me work that out.").waitFor();
    await snapshot("failure-run-error");
    expectPage(await page.getByText(CARBON_GENERIC_ERROR).count()).toBe(0);
    expectPage(await page.getByText("This message was not completed").count()).toBe(0);
    await send("Hi again");
    await messages(page).getByText("scripted AG-UI agent").waitFor();
  });

  it("says the agent could not be reached", async () => {
    const closed = await agentAnswering(200);
    const url = urlOf(closed);
    await close(closed);
    const { page, send, snapshot } = await openDemo(url);
    await send("Hello?");
    await messages(page).getByText("The agent could not be reached.").waitFor();
    await snapshot("failure-unreachable");
    expectPage(await page.getByText(CARBON_GENERIC_ERROR).count()).toBe(0);
  });

  it("says what status the agent answered", async () => {
    const agent = await agentAnswering(503);
    try {
      const { page, send } = await openDemo(urlOf(agent));
      await send("Hello?");
      await messages(page).getByText("The agent answered 503 Service Unavailable.").waitFor();
      expectPage(await page.getByText(CARBON_GENERIC_ERROR).count()).toBe(0);
      expectPage(await page.getByText("upstream is down").count()).toBe(0);
    } finally {
      await close(agent);
    }
  });
});
