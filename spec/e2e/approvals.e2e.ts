import { expect as expectPage } from "@jest/globals";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { startApprovalsDemo } from "../../examples/frameworks/approvalsDemo";
import { useBrowserOn } from "./browser";

/**
 * The approvals demo (`npm run demo:approvals`) in Chromium, on both pages: an AI SDK agent in CopilotKit's runtime
 * calls send_email on the reference tool server, which waits for a reviewer; the page's adapter has the reviewer's
 * ToolClient, so the step waits, a card asks, and the reviewer's edit is what the tool runs with; the agent answers
 * from the tool's result. Screenshots of the open card and the answer go to docs/screenshots/approval-*.png.
 */
const browsing = useBrowserOn(startApprovalsDemo);
const open = (query: string) => browsing.open(query);

const SCREENSHOTS = join(__dirname, "../../docs/screenshots");
const messages = (page: Page) => page.locator('[data-testid^="message-by-index"]');
const PROMPT = "send the weekly report by e-mail to ops@example.com";
const EDITED = { to: "ops@example.com", subject: "Weekly report", cc: "audit@example.com" };

describe.each([
  ["web component", "?persist=off", "web"],
  ["React", "react?persist=off", "react"],
])("a tool server's approval, in Chromium on the %s page", (_renderer, query, slug) => {
  it("the step waits and a card asks; approved with a cc, the tool runs with it and the agent answers from its result", async () => {
    const chat = await open(query);
    const { page } = chat;
    const runsBefore = browsing.demo.toolServer.toolRuns("send_email");
    await chat.send(PROMPT);
    const card = page.locator(".cagr-decision-card", { hasText: "Allow send_email?" });
    await card.waitFor();
    await card.getByText("Action: send_email").waitFor();
    expectPage(JSON.parse((await card.locator(".cagr-card-code").textContent()) ?? "")).toEqual({ to: "ops@example.com", subject: "Weekly report" });
    const [pending] = (await page.evaluate("window.adapter.pendingInterrupts.map(({ interrupt }) => interrupt)")) as { reason: string; metadata: { approvalId: string } }[];
    expectPage(pending).toMatchObject({ reason: "tool_server_approval", metadata: { approvalId: expectPage.stringMatching(/^apr_/) } });
    await messages(page).getByText("This e-mail needs a reviewer's approval before it goes out.").waitFor();
    await card.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300); // the screenshot is for people
    await page.screenshot({ path: join(SCREENSHOTS, `approval-card-${slug}.png`) });

    // The step waits for approval, not spinning (inside the answer's chain of thought; Carbon draws it as succeeded).
    await messages(page).getByText("How did I get this answer?").click();
    await messages(page).getByText("1: send_email").click();
    await messages(page).getByLabel("Succeeded").waitFor();
    await messages(page).getByText("Waiting for approval").waitFor();
    await messages(page).getByText("How did I get this answer?").click();
    // The chain of thought folded away (Carbon animates it, and the card moves with it) before the card is clicked.
    await messages(page).getByText("Waiting for approval").waitFor({ state: "hidden" });
    await card.scrollIntoViewIfNeeded();
    expectPage(browsing.demo.toolServer.toolRuns("send_email")).toBe(runsBefore);

    // Approve with changes: a cc.
    await card.getByRole("button", { name: "Approve with changes" }).click();
    const editor = card.locator(".cagr-card-editor textarea");
    await editor.waitFor();
    await editor.fill(JSON.stringify(EDITED, null, 2));
    const pageError = new Promise((_, reject) => page.once("pageerror", reject));
    await card.getByRole("button", { name: "Send with changes" }).click();
    await Promise.race([messages(page).getByText("Sent the weekly report to ops@example.com, with audit@example.com in cc.").waitFor(), pageError]);
    expectPage(browsing.demo.toolServer.toolRuns("send_email")).toBe(runsBefore + 1);
    await card.locator(".cagr-card-status").filter({ hasText: "Approved with your changes." }).waitFor();
    expectPage(await page.evaluate("window.adapter.pendingInterrupts.length")).toBe(0);
    await page.locator(".cds-aichat--messages__wrapper").evaluate((list) => list.scrollTo({ top: list.scrollHeight }));
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOTS, `approval-answered-${slug}.png`) });
    // The answer's own chain of thought: the call, now with the tool's result.
    await messages(page).getByText("How did I get this answer?").last().click();
    await messages(page).getByText("1: send_email").last().click();
    await messages(page).getByLabel("Succeeded").last().waitFor();
  });
});
