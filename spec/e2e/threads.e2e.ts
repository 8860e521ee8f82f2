import { expect as expectPage } from "@jest/globals";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { untilTrue, useBrowserDemo } from "./browser";

/**
 * The demo's conversations panel (examples/web/threadsPanel.ts): what `adapter.listThreads()` gives, as rows in
 * Carbon's look, the current one marked, a click switching. persistence.e2e.ts covers what a switch brings back into
 * the chat; this is the panel. Its screenshot goes to docs/screenshots/threads-panel.png.
 */
const demo = useBrowserDemo();

const messages = (page: Page) => page.locator('[data-testid^="message-by-index"]');
const threadOf = (page: Page) => new URL(page.url()).searchParams.get("thread");
/** Until the adapter has saved the thread whose first question is `text` (a moment after its final response). */
const saved = (page: Page, text: string) =>
  untilTrue(page, async (wanted: string) => (await window.adapter.listThreads()).some((thread) => thread.title === wanted), text);

describe("the demo's conversations panel, in Chromium with Carbon 1.9.1", () => {
  it("lists the threads in Carbon's look, marks the current one, switches to another on a click (the URL following) and deletes one", async () => {
    const { page, send, snapshot } = await demo.open();
    const panel = page.getByRole("region", { name: "Conversations" });
    await panel.getByText("No conversations yet").waitFor();
    expectPage(await panel.locator(".thread-row").count()).toBe(0);

    // Three threads, each started from the panel's "New conversation" (Carbon's own button, as its web component).
    const newConversation = panel.getByRole("button", { name: "New conversation" });
    const threads: string[] = [];
    for (const [question, answer] of [
      ["What's the weather in Oslo?", messages(page).getByText("Oslo: 4 °C, sleet")],
      ["Who are you?", messages(page).locator("strong", { hasText: "scripted AG-UI agent" })],
      ["Hi there", messages(page).locator("strong", { hasText: "scripted AG-UI agent" })],
    ] as const) {
      if (threads.length > 0) {
        await newConversation.click();
        await page.waitForFunction((old) => new URL(location.href).searchParams.get("thread") !== old, threads.at(-1)!);
      }
      await send(question);
      await answer.waitFor();
      threads.push(threadOf(page)!);
      await saved(page, question);
    }
    expectPage(new Set(threads).size).toBe(3);

    // The latest save first; each row its title and a short time (today's: the clock); only the current one marked.
    const rows = panel.locator(".thread-row");
    await page.waitForFunction(() => document.querySelectorAll(".threads .thread-row").length === 3);
    expectPage(await rows.locator(".thread-title").allTextContents()).toEqual(["Hi there", "Who are you?", "What's the weather in Oslo?"]);
    for (const time of await rows.locator(".thread-time").allTextContents()) expectPage(time).toMatch(/^\d{1,2}:\d{2}/);
    expectPage(await panel.getByText("No conversations yet").isHidden()).toBe(true);
    const current = panel.locator(".thread[aria-current=true]");
    await current.filter({ hasText: "Hi there" }).waitFor();
    expectPage(await current.count()).toBe(1);
    // Carbon's selected look: a left border in the interactive color, the layer's selected background (white theme).
    const look = (row: ReturnType<typeof rows.nth>) =>
      row.evaluate((element) => {
        const style = getComputedStyle(element);
        return { border: `${style.borderLeftWidth} ${style.borderLeftStyle} ${style.borderLeftColor}`, background: style.backgroundColor };
      });
    expectPage(await look(rows.nth(0))).toEqual({ border: "3px solid rgb(15, 98, 254)", background: "rgb(224, 224, 224)" });
    expectPage((await look(rows.nth(2))).background).toBe("rgba(0, 0, 0, 0)");

    // A click on another row switches to it: the chat shows it, the URL names it, the mark moves to it.
    await panel.getByRole("button", { name: /^What's the weather in Oslo\?/ }).click();
    await messages(page).getByText("Oslo: 4 °C, sleet").waitFor();
    await page.waitForFunction((wanted) => new URL(location.href).searchParams.get("thread") === wanted, threads[0]);
    await current.filter({ hasText: "What's the weather in Oslo?" }).waitFor();
    expectPage(await current.count()).toBe(1);
    // Nothing hovered (the clicked row would show Carbon's selected-hover), nothing focused, for the look and the screenshot.
    await page.mouse.move(400, 700);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    expectPage(await look(rows.nth(2))).toEqual({ border: "3px solid rgb(15, 98, 254)", background: "rgb(224, 224, 224)" });
    expectPage(await page.evaluate(() => window.adapter.threadId)).toBe(threads[0]);
    await page.waitForTimeout(300);
    await snapshot("threads-panel");
    const docs = join(__dirname, "../../docs/screenshots");
    mkdirSync(docs, { recursive: true });
    await page.screenshot({ path: join(docs, "threads-panel.png") });
    // A row hovered, another focused from the keyboard (for a look at .tmp/screenshots/threads-panel-hover-focus.png).
    await rows.filter({ hasText: "Hi there" }).hover();
    await panel.getByRole("button", { name: /^Who are you\?/ }).focus();
    await page.keyboard.press("Shift");
    await snapshot("threads-panel-hover-focus");

    // The delete button of a row (Carbon's icon button, named for its thread) takes it off the list, without asking.
    await panel.getByRole("button", { name: "Delete “Who are you?”" }).click();
    await rows.filter({ hasText: "Who are you?" }).waitFor({ state: "detached" });
    expectPage(await rows.locator(".thread-title").allTextContents()).toEqual(["Hi there", "What's the weather in Oslo?"]);
    expectPage(threadOf(page)).toBe(threads[0]);
  });
});
