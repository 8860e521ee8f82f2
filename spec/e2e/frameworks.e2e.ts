import { expect as expectPage } from "@jest/globals";
import type { Browser, Page } from "playwright-core";
import { serveFramework } from "../../examples/frameworks/serve";
import { startWebDemo } from "../../examples/web/serve";
import { launchChromium, openChatPage, PAGE_OPTIONS, type ChatPage } from "./browser";

const messages = (page: Page) => page.locator('[data-testid^="message-by-index"]');

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

/** The demo page against `framework`'s agent as `npm run demo:<framework>` serves it: `steps` chat on it, and everything closes after. */
async function onDemoPage(framework: string, steps: (chat: ChatPage) => Promise<void>): Promise<void> {
  const agent = await serveFramework(framework);
  const demo = await startWebDemo(agent.url);
  const page = await browser.newPage(PAGE_OPTIONS);
  try {
    await steps(await openChatPage(page, demo.url));
  } finally {
    await page.close();
    await demo.close();
    await agent.close();
  }
}

/** Sends a message, asking to delete the temp files, and waits for the decision card on delete_files. */
async function askToDelete({ page, send }: ChatPage) {
  await send("Please delete the temp files");
  const approve = page.getByRole("button", { name: "Approve", exact: true });
  await approve.waitFor();
  expectPage(await page.locator(".cagr-decision-card .cagr-card-action").textContent()).toBe("Action: delete_files");
  return approve;
}

// The demo page against real framework agents (scripted mock models), as `npm run demo:copilotkit` + `AGUI_URL=… npm run demo` serve them.
describe.each(["copilotkit", "mastra"])("the demo page in Chromium against a real %s agent", (framework) => {
  it("answers, runs a tool with its step in the chain of thought, and takes an approval through the decision card", () =>
    onDemoPage(framework, async (chat) => {
      const { page, send, snapshot } = chat;
      await send("Hello there");
      await messages(page).getByText("You said: Hello there").waitFor();
      await send("What's the weather in Paris?");
      await messages(page).getByText("Here is what I found").waitFor();
      await messages(page).getByText("How did I get this answer?").first().waitFor();
      const approve = await askToDelete(chat);
      await snapshot(`${framework}-decision-card`);
      await approve.click();
      await page.locator(".cagr-decision-card .cagr-card-status", { hasText: "Approved." }).waitFor();
      await send("Thanks");
      await messages(page).getByText("You said: Thanks").waitFor();
    }));
});

// The demo page against a LangGraph.js graph behind the LangGraph API server, as `npm run demo:langgraph` serves it.
describe("the demo page in Chromium against a real LangGraph graph", () => {
  it("answers, shows a backend tool's step, and takes an approval and two parallel decisions through the graph's interrupts", () =>
    onDemoPage("langgraph", async (chat) => {
      const { page, send, snapshot } = chat;
      await send("Hello there");
      await messages(page).getByText("You said: Hello there").waitFor();
      await send("What's the weather?");
      await messages(page).getByText("It is sunny in Paris, 21 °C.").waitFor();
      await messages(page).getByText("How did I get this answer?").first().waitFor();
      const approve = await askToDelete(chat);
      await snapshot("langgraph-decision-card");
      await approve.click();
      // The resumed node's answer comes only in the run's MESSAGES_SNAPSHOT.
      await messages(page).getByText("Deleted the files matching *.tmp.").waitFor();
      await page.locator(".cagr-decision-card .cagr-card-status", { hasText: "Approved." }).waitFor();
      await snapshot("langgraph-approved");
      await send("Tidy up, please");
      const email = page.locator(".cagr-decision-card", { hasText: "Email team@example.com?" });
      await email.waitFor();
      await snapshot("langgraph-parallel-cards");
      await page.locator(".cagr-decision-card", { hasText: "Delete the files matching" }).last().getByRole("button", { name: "Approve", exact: true }).click();
      await email.getByRole("button", { name: "Reject", exact: true }).click();
      await messages(page).getByText("OK, no email.").waitFor();
      await messages(page).getByText("Deleted the files matching *.tmp.").nth(1).waitFor();
      await messages(page).getByText("OK, no email.").scrollIntoViewIfNeeded();
      await snapshot("langgraph-parallel-answered");
      await send("Thanks");
      await messages(page).getByText("You said: Thanks").waitFor();
    }));
});
