import { expect as expectPage } from "@jest/globals";
import type { Page } from "playwright-core";
import { untilTrue, useBrowserDemo } from "./browser";
import { installProbe, readProbe } from "./probe";

const demo = useBrowserDemo();

/** The chat's messages, without Carbon's screen-reader announcements (which repeat their text). */
const messages = (page: Page) => page.locator('[data-testid^="message-by-index"]');

describe("the demo page in Chromium: Carbon AI Chat through carbon-agui-rx", () => {
  it("streams an answer as markdown, then answers the next message (the queue is not stuck)", async () => {
    const { page, send, snapshot } = await demo.open();
    await send("Hi there");
    await messages(page).locator("strong", { hasText: "scripted AG-UI agent" }).waitFor();
    await snapshot("streamed-answer");
    await send("Do you remember what we said?");
    await messages(page).getByText("has 3 messages so far").waitFor();
  });

  it("greets with starter prompts on Carbon's home screen, under the assistant's own name; a starter asks the agent", async () => {
    const { page, snapshot } = await demo.open();
    await page.getByText("Hi! I'm a scripted AG-UI agent.").waitFor();
    const starter = page.getByRole("button", { name: "What's the weather in Oslo?" });
    await starter.waitFor();
    await page.waitForTimeout(600); // Carbon fades the home screen in; the screenshot is for people
    await snapshot("home-screen");
    await starter.click();
    await messages(page).getByText("Oslo: 4 °C, sleet").waitFor();
    await messages(page).getByText("Demo agent", { exact: false }).first().waitFor();
    expect(await messages(page).getByText("watsonx").count()).toBe(0);
  });

  it("shows reasoning, the tool step and its status in the chain of thought, and a native Carbon card", async () => {
    const { page, send, snapshot } = await demo.open();
    await send("What's the weather in Oslo?");
    await messages(page).getByText("Oslo: 4 °C, sleet").waitFor();
    await page.getByRole("button", { name: "Tomorrow?" }).waitFor();
    await messages(page).getByText("Show reasoning").waitFor();
    await messages(page).getByText("How did I get this answer?").click();
    await messages(page).getByText("1: get_forecast").waitFor();
    // Carbon labels each step's status icon for assistive technology.
    await messages(page).getByLabel("Succeeded").waitFor();
    await snapshot("weather-chain-of-thought");
  });

  it("approves an interrupt from its decision card, and the continuation streams in", async () => {
    const { page, send, snapshot } = await demo.open();
    await send("Please delete my old files");
    const approve = page.getByRole("button", { name: "Approve", exact: true });
    await approve.waitFor();
    await snapshot("decision-card");
    await approve.click();
    await messages(page).getByText("Done: deleted notes.txt").waitFor();
    await snapshot("decision-approved");
    expectPage(await approve.isDisabled()).toBe(true);
    // The card is ours, slotted into the chat element's light DOM.
    expectPage(await page.locator(".cagr-decision-card .cagr-card-status").textContent()).toBe("Approved.");
  });

  it("draws the decision card in Carbon's dark theme when the chat uses it", async () => {
    const { page, send, snapshot } = await demo.open("?theme=g100");
    await send("Please delete my old files");
    const card = page.locator(".cagr-decision-card");
    await page.getByRole("button", { name: "Approve", exact: true }).waitFor();
    await page.waitForTimeout(300); // let Carbon's message animation settle for the screenshot
    await snapshot("decision-card-dark");
    const [background, text] = await card.evaluate((element) => [getComputedStyle(element).backgroundColor, getComputedStyle(element).color]);
    const lightness = (color: string) => (color.match(/\d+/g) ?? []).slice(0, 3).map(Number).reduce((sum, channel) => sum + channel, 0) / 3;
    expectPage(lightness(background)).toBeLessThan(80);
    expectPage(lightness(text)).toBeGreaterThan(180);
  });

  it("rejects an interrupt, and the agent says so", async () => {
    const { page, send } = await demo.open();
    await send("Please delete my old files");
    await page.getByRole("button", { name: "Reject" }).click();
    await messages(page).getByText("Okay, I left the files alone.").waitFor();
  });

  it("keeps the partial text of a RUN_ERROR, marks it not completed, and the next message works", async () => {
    const { page, send, snapshot } = await demo.open();
    await send("Now try something that will fail");
    await messages(page).getByText("Let me work that out.").waitFor();
    await messages(page).getByText("The model is overloaded.").waitFor();
    await page.waitForTimeout(300);
    await snapshot("run-error");
    await send("Hi again");
    await messages(page).getByText("scripted AG-UI agent").waitFor();
  });

  it("stops a long answer with Carbon's stop button, shows \"Response stopped\", and the next message works", async () => {
    const { page, send, snapshot } = await demo.open();
    await send("Tell me a long story");
    await messages(page).getByText("Once upon a time").waitFor();
    await page.getByRole("button", { name: /stop/i }).click();
    await messages(page).getByText("Response stopped").waitFor();
    await snapshot("stopped");
    await send("Hi again");
    await messages(page).getByText("scripted AG-UI agent").waitFor();
  });

  it("shows a 3,000-delta burst whole in a handful of chunks (deltas merge in windows of 100 ms to 1 s by default)", async () => {
    const { page, send } = await demo.open();
    await installProbe(page);
    await send("long answer in 3000 deltas");
    await messages(page).getByText("The end.").waitFor();
    expectPage((await readProbe(page)).chunks).toBeLessThan(50);
  });

  it("with coalescing off, hands a 3,000-delta burst over in a handful of chunks (the queue joins the deltas it fell behind on), and the stop button still stops it with all the text", async () => {
    const { page, send } = await demo.open("?coalesce=off");
    await installProbe(page);
    await send("long answer in 3000 deltas and wait");
    await messages(page).getByText("The end.").waitFor({ timeout: 30_000 });
    // One chunk per delta would be 3,000 chunks, handed over 10 ms a frame for seconds.
    expectPage((await readProbe(page)).chunks).toBeLessThan(50);
    await page.getByRole("button", { name: /stop/i }).click();
    await messages(page).getByText("Response stopped").waitFor({ timeout: 5_000 });
    await messages(page).getByText("The end.").waitFor();
    await send("Hi again");
    await messages(page).getByText("scripted AG-UI agent").waitFor();
  });

  it("approves with edited arguments checked in the card", async () => {
    const { page, send } = await demo.open();
    await send("Please delete my old files");
    await page.getByRole("button", { name: "Approve with changes" }).click();
    const editor = page.locator(".cagr-decision-card .cagr-card-editor textarea");
    await editor.fill('{"paths": ["old.log"]}');
    await page.getByRole("button", { name: "Send with changes" }).click();
    await messages(page).getByText("Done: deleted old.log.").waitFor();
  });

  it("sends an e-mail through the tool server: its approval becomes the card, the edited arguments reach the tool", async () => {
    const { page, send, snapshot } = await demo.open();
    await send("Please e-mail ops that the deploy finished");
    await page.getByRole("button", { name: "Approve with changes" }).click();
    const editor = page.locator(".cagr-decision-card .cagr-card-editor textarea");
    await editor.waitFor();
    expectPage(JSON.parse(await editor.inputValue())).toEqual({ to: "ops@example.com", subject: "The deploy finished" });
    await editor.fill('{"to": "ops@example.com", "subject": "Deploy finished", "cc": "audit@example.com"}');
    await snapshot("tool-server-approval");
    await page.getByRole("button", { name: "Send with changes" }).click();
    await messages(page).getByText("Sent through the tool server to ops@example.com (cc audit@example.com).").waitFor();
  });

  it("re-arms the card when the resume fails before any event, and the second answer goes through", async () => {
    const { page, send, snapshot } = await demo.open();
    await send("Please delete my flaky files");
    const approve = page.getByRole("button", { name: "Approve", exact: true });
    await approve.click();
    await page.locator(".cagr-decision-card .cagr-card-status", { hasText: "You can answer again." }).waitFor();
    await snapshot("decision-retry");
    expectPage(await approve.isEnabled()).toBe(true);
    await approve.click();
    await messages(page).getByText("Done: deleted notes.txt").waitFor();
  });

  it("shows a clarification card when the agent asks through its state", async () => {
    const { page, send } = await demo.open();
    await send("Book a table");
    await page.locator(".cagr-clarification-card", { hasText: "Which date should I book?" }).waitFor();
  });

  it("shows the shared state in a labelled side panel as it changes, long values wrapped inside it", async () => {
    const { page, send } = await demo.open();
    await send("What's the weather in Oslo?");
    const panel = page.getByRole("region", { name: "Agent's shared state" });
    await panel.locator(".state", { hasText: '"lookups": 2' }).waitFor();
    // A value longer than the panel is wide, without spaces to break at.
    await panel.locator(".state").evaluate((element) => (element.textContent = JSON.stringify({ note: "x".repeat(400) }, null, 2)));
    const overflows = await panel.evaluate((element) => element.scrollWidth > element.clientWidth);
    expect(overflows).toBe(false);
  });

  it("answers the weather card's 'Tomorrow?' button with tomorrow's forecast", async () => {
    const { page, send } = await demo.open();
    await send("What's the weather in Oslo?");
    await page.getByRole("button", { name: "Tomorrow?" }).click();
    await messages(page).getByText("Oslo tomorrow: 6 °C, clouds").waitFor();
  });

  it("starts a new thread when the conversation restarts", async () => {
    const { page, send } = await demo.open();
    await send("Hi there");
    await messages(page).getByText("scripted AG-UI agent").waitFor();
    const before = await page.evaluate("window.adapter.threadId");
    await page.evaluate("window.chatInstance.messaging.restartConversation()");
    await page.waitForFunction(`window.adapter.threadId !== ${JSON.stringify(before)} && window.adapter.messages.length === 0`);
    await send("Do you remember what we said?");
    await messages(page).getByText("has 1 messages so far").waitFor();
  });

  it("starts a new thread when the page clears Carbon's chat itself (clearConversation, which fires no event)", async () => {
    const { page, send } = await demo.open();
    await send("Hi there");
    await messages(page).getByText("scripted AG-UI agent").waitFor();
    // Once the turn is over (the thread is saved at its end): a clear during a turn resets through the request it cancels.
    await untilTrue(page, async () => (await window.adapter.listThreads()).some((thread) => thread.title === "Hi there"));
    const before = await page.evaluate("window.adapter.threadId");
    await page.evaluate("window.chatInstance.messaging.clearConversation()");
    await page.waitForFunction(`window.adapter.threadId !== ${JSON.stringify(before)} && window.adapter.messages.length === 0`);
    await send("Do you remember what we said?");
    await messages(page).getByText("has 1 messages so far").waitFor();
  });
});
