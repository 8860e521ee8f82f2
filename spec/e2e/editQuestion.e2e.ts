import { join } from "node:path";
import type { Page } from "playwright-core";
import { savedWithRunsEnded, useBrowserDemo } from "./browser";

/**
 * Editing a question in Chromium, on both pages, against the demo's scripted agent: the control under the question
 * puts its text in Carbon's input, the question sent from there takes the old one's place (the agent is sent the
 * history before it and the edited question), "‹ 2 / 2 ›" goes back to the branch left and forth again, a reload keeps
 * the branch chosen. Screenshots go to docs/screenshots/edit-question-*.png.
 */
const browsing = useBrowserDemo();
const SCREENSHOTS = join(__dirname, "../../docs/screenshots");
const messages = (page: Page) => page.locator('[data-testid^="message-by-index"]');
/** The control of the latest question (drawn at the top of its answer). */
const control = (page: Page) => page.locator(".cagr-question:visible").last();
const button = (page: Page, name: string) => control(page).getByRole("button", { name, exact: true });
const input = (page: Page) => page.getByRole("textbox").first();

describe.each([
  ["web component", "", "web"],
  ["React", "react", "react"],
])("editing a question, in Chromium on the %s page", (_renderer, query, slug) => {
  it("edits the latest question from Carbon's input, goes back and forth between its branches, keeps the branch over a reload", async () => {
    const { page, send } = await browsing.open(query);
    await send("Hi there");
    await messages(page).locator("strong", { hasText: "scripted AG-UI agent" }).waitFor();
    await send("What's the weather in Oslo?");
    await messages(page).getByText("Oslo: 4 °C, sleet").waitFor();
    await button(page, "Edit the question").waitFor();
    expect(await page.locator(".cagr-question:visible").count()).toBe(2);
    // Carbon's thumbs, up and down: on both answers in React (the page sets ChatContainer's persistFeedback), on the
    // latest only in the web component (Carbon 1.9.1's element does not pass persistFeedback on).
    const thumbs = messages(page).locator("cds-aichat-feedback-buttons");
    await thumbs.last().waitFor();
    expect(await thumbs.count()).toBe(slug === "react" ? 2 : 1);

    await button(page, "Edit the question").click();
    // Carbon's input is an element it edits (contenteditable): its text is the question's.
    await page.waitForFunction((element) => element?.textContent === "What's the weather in Oslo?", await input(page).elementHandle());
    await control(page).getByText("Editing: change the question below and send it").waitFor();
    await page.mouse.move(1, 1);
    await page.waitForTimeout(300); // the screenshot is for people
    await page.screenshot({ path: join(SCREENSHOTS, `edit-question-editing-${slug}.png`) });

    await send("Do you remember what we said?");
    // The agent was sent the greeting, its answer and the edited question: not the question it replaced.
    await messages(page).getByText("has 3 messages so far").waitFor();
    expect(await messages(page).getByText("Oslo: 4 °C, sleet").count()).toBe(0);
    expect(await messages(page).getByText("What's the weather in Oslo?").count()).toBe(0);
    await control(page).getByText("2 / 2").waitFor();
    await page.mouse.move(1, 1);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOTS, `edit-question-${slug}.png`) });

    await button(page, "Previous version of the question").click();
    await messages(page).getByText("Oslo: 4 °C, sleet").waitFor();
    await control(page).getByText("1 / 2").waitFor();
    expect(await messages(page).getByText("has 3 messages so far").count()).toBe(0);
    await page.waitForFunction(() => window.adapter.messages.some((message) => message.content === "What's the weather in Oslo?"));

    await savedWithRunsEnded(page);
    await page.reload();
    await messages(page).getByText("Oslo: 4 °C, sleet").waitFor();
    await control(page).getByText("1 / 2").waitFor();
    await button(page, "Next version of the question").click();
    await messages(page).getByText("has 3 messages so far").waitFor();
    expect(await messages(page).getByText("Oslo: 4 °C, sleet").count()).toBe(0);
  });
});
