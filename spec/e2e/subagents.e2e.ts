import { join } from "node:path";
import type { Page } from "playwright-core";
import { SUPERVISOR } from "../../examples/supervisor";
import { useBrowserDemo } from "./browser";

/**
 * The demo's supervisor ("Why are there tides?") in Chromium, on both pages: the answer is the supervisor's two
 * sentences, never its researcher's notes; under "How did I get this answer?" each subagent is a step of its own
 * after the delegating call, the researcher's search under it, the fact checker failed with why; the run's tokens
 * show quietly under the answer. Screenshots go to docs/screenshots/subagents-*.png.
 */
const browsing = useBrowserDemo();
const SCREENSHOTS = join(__dirname, "../../docs/screenshots");
const messages = (page: Page) => page.locator('[data-testid^="message-by-index"]');

describe.each([
  ["web component", "?persist=off", "web"],
  ["React", "react?persist=off", "react"],
])("a supervisor and its subagents, in Chromium on the %s page", (_renderer, query, slug) => {
  it("shows the supervisor's words as the answer and each subagent as a step, the failing one failed, the tokens under it", async () => {
    const chat = await browsing.open(query);
    const { page } = chat;
    await chat.send("Why are there tides?");
    // Carbon draws each item of the answer as a message row of its own.
    const answer = messages(page);
    await answer.getByText(SUPERVISOR.answer).waitFor();
    await answer.getByText("250 tokens (200 in, 50 out)").waitFor();
    // Shown nowhere but in the researcher's step, which is closed.
    expect((await answer.allInnerTexts()).join("\n")).not.toContain(SUPERVISOR.notes);

    await answer.getByText("How did I get this answer?").click();
    for (const label of ["1: Handing off to researcher", "2: researcher", "3: researcher: search", "4: fact_checker"]) await answer.getByText(label, { exact: true }).waitFor();
    await answer.getByText("4: fact_checker", { exact: true }).click();
    await answer.getByText(`${SUPERVISOR.checkerFailure} (BUDGET_EXCEEDED)`).waitFor();
    await answer.getByLabel("Failed").waitFor();
    await answer.getByText("2: researcher", { exact: true }).click();
    // The delegating call's result is the notes too: the researcher's step is the later one.
    await answer.getByText(SUPERVISOR.notes).last().waitFor();
    await page.setViewportSize({ width: 1100, height: 1000 }); // the whole chain in view
    await page.waitForTimeout(300); // the screenshot is for people
    await page.locator(".cds-aichat--messages__wrapper").evaluate((list) => list.scrollTo({ top: list.scrollHeight }));
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOTS, `subagents-${slug}.png`) });
  });
});
