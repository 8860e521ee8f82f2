import type { RunAgentInput } from "@ag-ui/core";
import { expect as expectPage } from "@jest/globals";
import type { Locator, Page } from "playwright-core";
import type { ScriptedAgent, SseResponse } from "carbon-agui-rx/testing";
import { SLOW_BLOCKS } from "../../examples/scripted-conversation";
import { useBrowserDemo } from "./browser";

const demo = useBrowserDemo();

/** The chat's messages, without Carbon's screen-reader announcements (which repeat their text). */
const messages = (page: Page) => page.locator('[data-testid^="message-by-index"]');
/** The slow deletion's continuation, as far as it streamed. */
const continuation = (page: Page) => messages(page).filter({ hasText: "Shredded block 1 of" });
/**
 * The text a message shows: Carbon renders it inside shadow roots, which `textContent` leaves out. Runs of white
 * space are one space, and Carbon's feedback controls (the demo has `feedback` on; Carbon 1.9.1 draws them under the
 * latest answer only, starting with "Good response") are not the answer's words.
 */
const shownText = (message: Locator) =>
  message.evaluate((element) => {
    const read = (node: Node): string =>
      node.nodeType === Node.TEXT_NODE ? (node.textContent ?? "") : node.nodeName === "STYLE" ? "" : [...((node as Element).shadowRoot?.childNodes ?? []), ...node.childNodes].map(read).join("");
    const text = read(element).replace(/\s+/g, " ").trim();
    const feedback = text.indexOf(" Good response");
    return feedback === -1 ? text : text.slice(0, feedback);
  });
const LAST_BLOCK = `Shredded block ${SLOW_BLOCKS} of ${SLOW_BLOCKS}.`;
/** What the continuation asks once all its blocks are in: a new interrupt. */
const BACKUPS_QUESTION = "Delete their 3 backups too?";

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
    const stopped = continuation(page).getByText("Response stopped");
    // The continuation streams for about 6 s: a stop that did not reach it would show the whole of it, not this.
    await stopped.waitFor({ timeout: 10_000 });
    await resume.closed;
    // The browser went away mid-stream: the agent sent no more blocks, nor its closing interrupt.
    expectPage(resume.closedByClient).toBe(true);
    const status = page.locator(".cagr-decision-card .cagr-card-status");
    await status.filter({ hasText: "Approved." }).waitFor();
    await stopped.scrollIntoViewIfNeeded();
    await snapshot("resume-stopped");
    const stoppedText = await shownText(continuation(page));
    expectPage(stoppedText).toContain("Shredded block 3 of");

    await send("Do you remember what we said?");
    await messages(page).getByText(/has \d+ messages so far/).waitFor();
    // Nothing of the stopped run came after the stop, and its interrupt is answered for good.
    expectPage(await shownText(continuation(page))).toBe(stoppedText);
    expectPage(stoppedText).not.toContain(LAST_BLOCK);
    expectPage(await page.getByText(BACKUPS_QUESTION).count()).toBe(0);
    expectPage(await status.textContent()).toBe("Approved.");
    const next = agent.inputs.at(-1)!;
    expectPage(next.resume).toBeUndefined();
    expectPage(next.messages.at(-1)).toMatchObject({ role: "user", content: "Do you remember what we said?" });
    expectPage(await page.evaluate("window.adapter.pendingInterrupts.length")).toBe(0);
    await snapshot("resume-stopped-next");
  });

  it("restarts the conversation during the continuation: the new thread gets none of the stale run's output, no old message, no pending interrupt, and the next message works", async () => {
    const { page, send, snapshot } = await demo.open();
    const agent = demo.agent!;
    const resume = await approveSlowDeletion(page, send, agent);
    const oldThread = (await page.evaluate("window.adapter.threadId")) as string;

    await page.getByRole("button", { name: "Restart conversation" }).click();
    await resume.closed;
    expectPage(resume.closedByClient).toBe(true);
    await page.waitForFunction(
      `window.adapter.threadId !== ${JSON.stringify(oldThread)} && window.adapter.messages.length === 0 && window.adapter.pendingInterrupts.length === 0`,
      undefined,
      { timeout: 10_000 },
    );
    // Carbon goes back to its home screen.
    await page.getByText("Hi! I'm a scripted AG-UI agent.").waitFor();
    await page.waitForTimeout(600); // Carbon fades its home screen in; the screenshot is for people
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

  it("holds a message sent (by instance.send) while the continuation streams until the continuation has ended whole; the message then cancels its new interrupt in a run of its own, and is answered", async () => {
    const { page, send, snapshot } = await demo.open();
    const agent = demo.agent!;
    const resume = await approveSlowDeletion(page, send, agent);
    const runsBefore = agent.inputs.length;

    let resumeOver = false;
    void resume.closed.then(() => (resumeOver = true));
    // Carbon holds Enter while its stop button shows; a message can still come another way (a card's button, the host).
    // Not awaited: Carbon's promise settles once the message has been answered.
    await page.evaluate('void window.chatInstance.send("Do you remember what we said?")');
    expectPage(resumeOver).toBe(false);
    await resume.closed;
    // One run at a time on the thread: when the agent ended the continuation, the message had not been sent yet.
    expectPage(agent.inputs.length).toBe(runsBefore);
    expectPage(resume.closedByClient).toBe(false);
    // The continuation ends whole, asking about the backups (its card is ours, slotted into the chat element's light DOM).
    const backupsCard = page.locator(".cagr-decision-card", { hasText: BACKUPS_QUESTION });
    await backupsCard.waitFor({ timeout: 10_000 });
    // The message cancels that interrupt in a run of its own, which the scripted agent acknowledges; the message's run follows.
    await messages(page).getByText("Okay, I left the files alone.").waitFor();
    await messages(page).getByText(/messages so far, and I received all of them/).waitFor();
    expectPage(await backupsCard.getByRole("button", { name: "Approve", exact: true }).isDisabled()).toBe(true);
    await backupsCard.scrollIntoViewIfNeeded();
    await snapshot("resume-then-queued-message");
    expectPage(agent.inputs.length).toBe(runsBefore + 2);
    expectPage(await shownText(continuation(page))).toContain(LAST_BLOCK);
    expectPage(await continuation(page).getByText("Response stopped").count()).toBe(0);
    const [cancellation, next] = agent.inputs.slice(-2) as [RunAgentInput, RunAgentInput];
    expectPage(cancellation.resume).toEqual([{ interruptId: expect.stringMatching(/^backups-/), status: "cancelled" }]);
    expectPage(cancellation.messages).toEqual([]);
    expectPage(next.resume).toBeUndefined();
    expectPage(next.messages.at(-1)).toMatchObject({ role: "user", content: "Do you remember what we said?" });
    expectPage(next.messages.some((message) => message.role === "assistant" && String(message.content).includes(LAST_BLOCK))).toBe(true);
  });
});
