import { expect as expectPage } from "@jest/globals";
import type { Page } from "playwright-core";
import type { ScriptedAgent, SseResponse } from "carbon-agui-rx/testing";
import { SLOW_BLOCKS } from "../../examples/scripted-conversation";
import { useBrowserDemo } from "./browser";

const demo = useBrowserDemo();

/** The chat's messages, without Carbon's screen-reader announcements (which repeat their text). */
const messages = (page: Page) => page.locator('[data-testid^="message-by-index"]');
/** The slow deletion's continuation, as far as it streamed. */
const continuation = (page: Page) => messages(page).filter({ hasText: "Shredded block 1 of" });
const LAST_BLOCK = `Shredded block ${SLOW_BLOCKS} of ${SLOW_BLOCKS}.`;
/** What the continuation asks once all its blocks are in: a new interrupt. */
const BACKUPS_QUESTION = "Delete their 2 backups too?";

/**
 * Asks for the slow deletion, approves it on the card, and waits until its continuation streams in the chat (a few
 * blocks of about 60, one every 100 ms). Returns the resume's response on the agent's side, still open.
 */
async function approveSlowDeletion(page: Page, send: (text: string) => Promise<void>, agent: ScriptedAgent): Promise<SseResponse> {
  await send("Please delete my slow files");
  await page.getByRole("button", { name: "Approve", exact: true }).click();
  await messages(page).getByText("Shredded block 3 of").waitFor();
  const resume = agent.responses.at(-1)!;
  expectPage(agent.inputs.at(-1)?.resume).toEqual([expect.objectContaining({ interruptId: expect.stringMatching(/^slow-approve-/), status: "resolved" })]);
  expectPage(resume.closedByClient).toBe(false);
  return resume;
}

describe("a resume in Chromium: Carbon's stop button and restart reach the continuation of a decision card", () => {
  it("stops the continuation with Carbon's stop button: \"Response stopped\", the card answered, the agent's run closed, and the next message works", async () => {
    const { page, send, snapshot } = await demo.open();
    const agent = demo.agent!;
    const resume = await approveSlowDeletion(page, send, agent);

    await page.getByRole("button", { name: /stop/i }).click();
    await continuation(page).getByText("Response stopped").waitFor();
    await resume.closed;
    // The browser went away mid-stream: the agent sent no more blocks, nor its closing interrupt.
    expectPage(resume.closedByClient).toBe(true);
    const status = page.locator(".cagr-decision-card .cagr-card-status");
    await status.filter({ hasText: "Approved." }).waitFor();
    await snapshot("resume-stopped");
    const stoppedText = await continuation(page).textContent();

    await send("Do you remember what we said?");
    await messages(page).getByText(/has \d+ messages so far/).waitFor();
    // Nothing of the stopped run came after the stop, and its interrupt is answered for good.
    expectPage(await continuation(page).textContent()).toBe(stoppedText);
    expectPage(stoppedText).not.toContain(LAST_BLOCK);
    expectPage(await page.getByText(BACKUPS_QUESTION).count()).toBe(0);
    expectPage(await status.textContent()).toBe("Approved.");
    const next = agent.inputs.at(-1)!;
    expectPage(next.resume).toBeUndefined();
    expectPage(next.messages.at(-1)).toMatchObject({ role: "user", content: "Do you remember what we said?" });
    expectPage(await page.evaluate("window.adapter.pendingInterrupts.length")).toBe(0);
  });

  it("restarts the conversation during the continuation: the new thread gets none of the stale run's output, no old message, no pending interrupt, and the next message works", async () => {
    const { page, send, snapshot } = await demo.open();
    const agent = demo.agent!;
    const resume = await approveSlowDeletion(page, send, agent);
    const oldThread = (await page.evaluate("window.adapter.threadId")) as string;

    await page.evaluate("window.chatInstance.messaging.restartConversation()");
    await resume.closed;
    expectPage(resume.closedByClient).toBe(true);
    await page.waitForFunction(
      `window.adapter.threadId !== ${JSON.stringify(oldThread)} && window.adapter.messages.length === 0 && window.adapter.pendingInterrupts.length === 0`,
    );
    await page.getByRole("textbox").first().waitFor();
    await snapshot("resume-restarted");
    expectPage(await messages(page).count()).toBe(0);
    expectPage(await page.locator(".cagr-decision-card").count()).toBe(0);

    await send("Do you remember what we said?");
    await messages(page).getByText("has 1 messages so far").waitFor();
    const next = agent.inputs.at(-1)!;
    expectPage(next.threadId).not.toBe(oldThread);
    expectPage(next.resume).toBeUndefined();
    expectPage(next.messages).toEqual([expect.objectContaining({ role: "user", content: "Do you remember what we said?" })]);
    await snapshot("resume-restarted-next");
    expectPage(await continuation(page).count()).toBe(0);
    expectPage(await page.getByText(BACKUPS_QUESTION).count()).toBe(0);
    expectPage(await page.evaluate("[window.adapter.messages.length, window.adapter.pendingInterrupts.length]")).toEqual([2, 0]);
  });
});
