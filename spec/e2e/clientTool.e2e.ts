import type { Message } from "@ag-ui/core";
import { expect as expectPage } from "@jest/globals";
import type { Locator, Page } from "playwright-core";
import { meetingIn } from "../../examples/web/meetingAgent";
import { SCHEDULE_MEETING } from "../../examples/web/meetingTool";
import { useBrowserDemo, type ChatPage } from "./browser";

const demo = useBrowserDemo();

/** The chat's messages, without Carbon's screen-reader announcements (which repeat their text). */
const messages = (page: Page) => page.locator('[data-testid^="message-by-index"]');
const PROMPT = "Book a meeting with Ana about the roadmap tomorrow at 10";
/** What the person types instead of the proposal, and what the agent then books. */
const EDITED = { title: "Roadmap review", time: "2030-01-15 14:30" };
const BOOKED_AS_EDITED = `Booked “${EDITED.title}” for ${EDITED.time}, as you changed it.`;

/** Every assistant tool call in `messages` has a tool result after it. */
const danglingCalls = (history: readonly Message[]) =>
  history.flatMap((message, at) =>
    message.role === "assistant" ? (message.toolCalls ?? []).filter((call) => !history.slice(at + 1).some((later) => later.role === "tool" && later.toolCallId === call.id)).map((call) => call.id) : [],
  );

/**
 * Asks for a meeting and waits for its card. Checks the run offered `schedule_meeting` (declared with no handler),
 * what the card shows, and that the adapter holds its own interrupt for the call. Returns the card and the call's id.
 */
async function askForMeeting(chat: ChatPage): Promise<{ card: Locator; toolCallId: string }> {
  const { page, send } = chat;
  const agent = demo.agent!;
  await send(PROMPT);
  const card = page.locator(".cagr-decision-card", { hasText: SCHEDULE_MEETING.description });
  await card.waitFor();
  const asked = agent.inputs.at(-1)!;
  expectPage(asked.tools).toEqual([SCHEDULE_MEETING]);
  const toolCallId = `meeting-${asked.runId}`;

  // The card: the tool's description as its question, the call's arguments, the three answers.
  await card.getByText("Action: schedule_meeting").waitFor();
  expectPage(JSON.parse((await card.locator(".cagr-card-code").textContent()) ?? "")).toEqual(meetingIn(PROMPT));
  for (const name of ["Approve", "Approve with changes", "Reject"]) expectPage(await card.getByRole("button", { name, exact: true }).isDisabled()).toBe(false);
  expectPage(await page.evaluate("window.adapter.pendingInterrupts.map(({ interrupt, decision }) => ({ interrupt, decision }))")).toEqual([
    { interrupt: { id: `client-tool-${toolCallId}`, reason: "client_tool", toolCallId, message: SCHEDULE_MEETING.description, responseSchema: SCHEDULE_MEETING.parameters } },
  ]);
  return { card, toolCallId };
}

/** The proposal's step, opened in its chain of thought: waiting for the person, not spinning (Carbon shows a step's description inside it, and draws the step as succeeded). */
async function expectStepWaiting(page: Page) {
  // The answer's text and its chain of thought are items of their own in Carbon's list of messages.
  await messages(page).getByText("I'll book it once you have checked it.").waitFor();
  await messages(page).getByText("How did I get this answer?").click();
  await messages(page).getByText("1: schedule_meeting").click();
  await messages(page).getByLabel("Succeeded").waitFor();
  await messages(page).getByText("Waiting for your answer").waitFor();
  // Closed again, so that what follows shows beside the card.
  await messages(page).getByText("How did I get this answer?").click();
  await messages(page).getByText("Waiting for your answer").waitFor({ state: "hidden" });
}

/** The run after the answer: the whole history with the answer as the call's result, no `resume`, no call left without a result. */
function expectAnsweredRun(runsBefore: number, toolCallId: string, content: unknown) {
  const agent = demo.agent!;
  expectPage(agent.inputs).toHaveLength(runsBefore + 1);
  const next = agent.inputs.at(-1)!;
  expectPage(next.resume).toBeUndefined();
  expectPage(next.messages[0]).toMatchObject({ role: "user", content: PROMPT });
  expectPage(next.messages.at(-1)).toMatchObject({ role: "tool", toolCallId, content: JSON.stringify(content) });
  expectPage(danglingCalls(next.messages)).toEqual([]);
}

describe.each([
  ["web component", "", "web"],
  ["React", "react", "react"],
])("a tool the person answers, in Chromium on the %s page: schedule_meeting, declared with no handler", (_renderer, query, slug) => {
  it("waits on a decision card; an edit that breaks the tool's schema is refused on the card and sends nothing; a fitting edit is the call's result, and the agent books from it", async () => {
    const chat = await demo.open(query);
    const { page } = chat;
    const agent = demo.agent!;
    const { card, toolCallId } = await askForMeeting(chat);
    await card.scrollIntoViewIfNeeded();
    await chat.snapshot(`client-tool-card-${slug}`);
    await expectStepWaiting(page);
    const runsBefore = agent.inputs.length;

    await card.getByRole("button", { name: "Approve with changes" }).click();
    const editor = card.locator(".cagr-card-editor textarea");
    await editor.waitFor();
    expectPage(JSON.parse(await editor.inputValue())).toEqual(meetingIn(PROMPT));
    // An empty title, a time the schema's pattern does not take, and a field it does not know.
    await editor.fill(JSON.stringify({ title: "", time: "tomorrow at ten", room: 4 }, null, 2));
    // The card's own words, or the error that kept it from saying them (rather than a silent timeout).
    const pageError = new Promise((_, reject) => page.once("pageerror", reject));
    await card.getByRole("button", { name: "Send with changes" }).click();
    const problem = card.locator(".cagr-card-problem");
    await Promise.race([problem.filter({ hasText: "The arguments do not fit" }).waitFor(), pageError]);
    const said = (await problem.textContent()) ?? "";
    expectPage(said).toContain("title");
    expectPage(said).toContain("time");
    await card.scrollIntoViewIfNeeded();
    await chat.snapshot(`client-tool-card-invalid-${slug}`);
    // Nothing went: no run, the interrupt still open without a decision, the editor still there to fix.
    await page.waitForTimeout(300);
    expectPage(agent.inputs).toHaveLength(runsBefore);
    expectPage(await page.evaluate("window.adapter.pendingInterrupts.map((entry) => entry.decision ?? null)")).toEqual([null]);
    expectPage(await card.getByRole("button", { name: "Send with changes" }).isDisabled()).toBe(false);

    await editor.fill(JSON.stringify(EDITED, null, 2));
    await card.getByRole("button", { name: "Send with changes" }).click();
    await messages(page).getByText(BOOKED_AS_EDITED).waitFor();
    expectPage(await problem.textContent()).toBe("");
    expectAnsweredRun(runsBefore, toolCallId, { approved: true, args: EDITED });
    const status = card.locator(".cagr-card-status");
    await status.filter({ hasText: "Approved with your changes." }).waitFor();
    for (const name of ["Approve", "Approve with changes", "Reject"]) expectPage(await card.getByRole("button", { name, exact: true }).isDisabled()).toBe(true);
    expectPage(await page.evaluate("window.adapter.pendingInterrupts.length")).toBe(0);
    // The answer and the card above it: Carbon leaves the chat where it was when the continuation came in, with its button to scroll to the end.
    await page.locator(".cds-aichat--messages__wrapper").evaluate((list) => list.scrollTo({ top: list.scrollHeight }));
    await page.getByRole("button", { name: "Scroll to bottom" }).waitFor({ state: "hidden" });
    await page.waitForTimeout(300); // the screenshot is for people
    await chat.snapshot(`client-tool-answered-${slug}`);
    // The answer shows the answered call first: its step has the answer as its result.
    await messages(page).getByText("How did I get this answer?").last().click();
    await messages(page).getByText("1: schedule_meeting").last().click();
    await messages(page).getByLabel("Succeeded").last().waitFor();
  });
});

describe.each([
  ["web component", ""],
  ["React", "react"],
])("a tool the person answers, on the %s page: the card's other answers", (_renderer, query) => {
  it("approved as proposed: the call's result is the approval, and the agent books what it proposed", async () => {
    const chat = await demo.open(query);
    const { card, toolCallId } = await askForMeeting(chat);
    await expectStepWaiting(chat.page);
    const runsBefore = demo.agent!.inputs.length;
    await card.getByRole("button", { name: "Approve", exact: true }).click();
    const proposed = meetingIn(PROMPT);
    await messages(chat.page).getByText(`Booked “${proposed.title}” for ${proposed.time}.`).waitFor();
    expectAnsweredRun(runsBefore, toolCallId, { approved: true });
    await card.locator(".cagr-card-status").filter({ hasText: "Approved." }).waitFor();
  });

  it("rejected: the call's result is cancelled, and the agent books nothing", async () => {
    const chat = await demo.open(query);
    const { card, toolCallId } = await askForMeeting(chat);
    await expectStepWaiting(chat.page);
    const runsBefore = demo.agent!.inputs.length;
    await card.getByRole("button", { name: "Reject" }).click();
    await messages(chat.page).getByText("Not booked.").waitFor();
    expectAnsweredRun(runsBefore, toolCallId, { status: "cancelled" });
    await card.locator(".cagr-card-note").filter({ hasText: "Rejected." }).waitFor();
  });
});

describe("a tool the person answers, answered without its card (web component page)", () => {
  it("by the app (adapter.respondToToolCall): its own result is the call's, and the card shows it answered", async () => {
    const chat = await demo.open();
    const { card, toolCallId } = await askForMeeting(chat);
    await expectStepWaiting(chat.page);
    const runsBefore = demo.agent!.inputs.length;
    const picked = { title: "Roadmap, from the app's own picker", time: "2030-02-01 09:00" };
    await chat.page.evaluate(`window.adapter.respondToToolCall(${JSON.stringify(toolCallId)}, ${JSON.stringify(picked)})`);
    await messages(chat.page).getByText(`Booked “${picked.title}” for ${picked.time}, as you changed it.`).waitFor();
    expectAnsweredRun(runsBefore, toolCallId, picked);
    await card.locator(".cagr-card-status").filter({ hasText: "Answered." }).waitFor();
    expectPage(await card.getByRole("button", { name: "Approve", exact: true }).isDisabled()).toBe(true);
  });

  it("by a message sent instead: the call is cancelled in the history, and that message gets its own answer", async () => {
    const chat = await demo.open();
    const { card, toolCallId } = await askForMeeting(chat);
    await chat.send("Do you remember what we said?");
    await messages(chat.page).getByText(/messages so far, and I received all of them/).waitFor();
    const next = demo.agent!.inputs.at(-1)!;
    expectPage(next.resume).toBeUndefined();
    expectPage(next.messages.find((message) => message.role === "tool" && message.toolCallId === toolCallId)).toMatchObject({ content: JSON.stringify({ status: "cancelled" }) });
    expectPage(danglingCalls(next.messages)).toEqual([]);
    await card.locator(".cagr-card-note").filter({ hasText: "a message sent instead cancelled this request" }).waitFor();
  });
});
