import { join } from "node:path";
import type { Page } from "playwright-core";
import { SUGGESTED_NAMES } from "../../examples/scripted-conversation";
import { useBrowserDemo } from "./browser";

/**
 * Regenerate and versions in Chromium, on both pages, against the demo's scripted agent ("suggest a name" gives the
 * next name each time the same question is asked): the bar under the latest answer regenerates, the new answer takes
 * the old one's place, "‹ 2 / 2 ›" switches back and forth, a reload keeps the versions and the chosen one, a new
 * question moves the bar; Carbon's thumbs are on the answer. Screenshots go to docs/screenshots/versions-*.png.
 */
const browsing = useBrowserDemo();
const SCREENSHOTS = join(__dirname, "../../docs/screenshots");
const messages = (page: Page) => page.locator('[data-testid^="message-by-index"]');
const bar = (page: Page) => page.locator(".cagr-versions:visible");
const button = (page: Page, name: string) => bar(page).getByRole("button", { name, exact: true });
/** The names the chat shows (Carbon's markdown is in shadow roots, which locators pierce). */
const shownNames = async (page: Page) => {
  const shown: string[] = [];
  for (const name of SUGGESTED_NAMES) if ((await messages(page).getByText(name).count()) > 0) shown.push(name);
  return shown;
};

describe.each([
  ["web component", "", "web"],
  ["React", "react", "react"],
])("regenerate and versions, in Chromium on the %s page", (_renderer, query, slug) => {
  it("asks again in place, switches versions, keeps them over a reload, and moves the bar to the next answer", async () => {
    const { page, send } = await browsing.open(query);
    await send("Please suggest a name for my cat");
    await messages(page).getByText(SUGGESTED_NAMES[0]!).waitFor();
    await button(page, "Regenerate").waitFor();
    expect(await bar(page).count()).toBe(1);
    // Carbon's own thumbs on the answer.
    await messages(page).getByRole("button", { name: /thumbs up|good response|like/i }).first().waitFor();

    await button(page, "Regenerate").click();
    await messages(page).getByText(SUGGESTED_NAMES[1]!).waitFor();
    await bar(page).getByText("2 / 2").waitFor();
    expect(await shownNames(page)).toEqual([SUGGESTED_NAMES[1]]);
    await page.mouse.move(1, 1); // no tooltip over the answer
    await page.waitForTimeout(300); // the screenshot is for people
    await page.screenshot({ path: join(SCREENSHOTS, `versions-${slug}.png`) });

    await button(page, "Previous version").click();
    await bar(page).getByText("1 / 2").waitFor();
    await messages(page).getByText(SUGGESTED_NAMES[0]!).waitFor();
    expect(await shownNames(page)).toEqual([SUGGESTED_NAMES[0]]);
    // The chosen version is what the next run builds on, and what a reload shows.
    await page.waitForFunction(() => window.adapter.messages.some((message) => message.role === "assistant" && String(message.content).includes("Biscuit")));

    await page.reload();
    await messages(page).getByText(SUGGESTED_NAMES[0]!).waitFor();
    await bar(page).getByText("1 / 2").waitFor();
    expect(await shownNames(page)).toEqual([SUGGESTED_NAMES[0]]);
    await button(page, "Next version").click();
    await messages(page).getByText(SUGGESTED_NAMES[1]!).waitFor();
    expect(await shownNames(page)).toEqual([SUGGESTED_NAMES[1]]);

    await send("Hello");
    await messages(page).getByText("scripted AG-UI agent").last().waitFor();
    await button(page, "Regenerate").waitFor();
    expect(await bar(page).count()).toBe(1);
    // One version of the new answer: no arrows yet.
    expect(await bar(page).locator(".cagr-versions-position").isVisible()).toBe(false);
  });
});
