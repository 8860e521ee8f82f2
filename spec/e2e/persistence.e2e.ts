import { expect as expectPage } from "@jest/globals";
import type { Locator, Page } from "playwright-core";
import { openChatPage, PAGE_OPTIONS, savedWithRunsEnded, useBrowserDemo } from "./browser";

const demo = useBrowserDemo();

/** The chat's messages, without Carbon's screen-reader announcements (which repeat their text). */
const messages = (page: Page) => page.locator('[data-testid^="message-by-index"]');
/** The text a message shows: Carbon renders it inside shadow roots, which `textContent` leaves out. */
const shownText = (message: Locator) =>
  message.evaluate((element) => {
    const read = (node: Node): string =>
      node.nodeType === Node.TEXT_NODE ? (node.textContent ?? "") : node.nodeName === "STYLE" ? "" : [...((node as Element).shadowRoot?.childNodes ?? []), ...node.childNodes].map(read).join("");
    return read(element);
  });
const threadOf = (page: Page) => new URL(page.url()).searchParams.get("thread");
/** Reloads, and waits for Carbon's input (the restored chat is there by then, or a moment later). */
const reload = async (page: Page) => {
  await page.reload();
  await page.getByRole("textbox").first().waitFor();
};
/** Asks for the deletion, waits for its card to be saved, reloads: the card's Approve button, once it is back. */
async function reloadedWithCard(page: Page, send: (text: string) => Promise<void>): Promise<Locator> {
  await send("Please delete my old files");
  await page.getByRole("button", { name: "Approve", exact: true }).waitFor();
  await savedWithRunsEnded(page);
  await reload(page);
  const approve = page.getByRole("button", { name: "Approve", exact: true });
  await approve.waitFor();
  return approve;
}

describe("conversations that survive a reload, in Chromium with Carbon 1.9.1 and IndexedDB", () => {
  it("brings a finished turn back as it was: the transcript, reasoning, the chain of thought and the custom card, on the same thread", async () => {
    const { page, send, snapshot } = await demo.open();
    await send("What's the weather in Oslo?");
    await messages(page).getByText("Oslo: 4 °C, sleet").waitFor();
    await snapshot("persist-before-reload");
    const thread = threadOf(page);
    expectPage(thread).toBe(await page.evaluate(() => window.adapter.threadId));
    await savedWithRunsEnded(page);

    await reload(page);
    await messages(page).getByText("Oslo: 4 °C, sleet").waitFor();
    expectPage(threadOf(page)).toBe(thread);
    await messages(page).getByText("What's the weather in Oslo?").waitFor();
    await page.getByRole("button", { name: "Tomorrow?" }).waitFor();
    await messages(page).getByText("Show reasoning").waitFor();
    await messages(page).getByText("How did I get this answer?").click();
    await messages(page).getByText("1: get_forecast").waitFor();
    await messages(page).getByLabel("Succeeded").waitFor();
    await snapshot("persist-after-reload");
    expectPage(await page.evaluate(() => window.adapter.state)).toEqual({ lastCity: "Oslo", lookups: 2 });

    // The thread goes on: the agent gets the history from before the reload.
    await send("Do you remember what we said?");
    await messages(page).getByText(/has \d+ messages so far/).waitFor();
    expectPage(demo.agent!.inputs.at(-1)!.threadId).toBe(thread);
    expectPage(demo.agent!.inputs.at(-1)!.messages[0]).toMatchObject({ role: "user", content: "What's the weather in Oslo?" });
  });

  it("keeps a pending card answerable after a reload: approving it resumes the same thread", async () => {
    const { page, send, snapshot } = await demo.open();
    const approve = await reloadedWithCard(page, send);
    expectPage(await approve.isDisabled()).toBe(false);
    await snapshot("persist-card-after-reload");
    await approve.click();
    await messages(page).getByText("Done: deleted notes.txt").waitFor();
    await snapshot("persist-card-answered");
    const resume = demo.agent!.inputs.at(-1)!;
    expectPage(resume.threadId).toBe(threadOf(page));
    expectPage(resume.resume).toEqual([expect.objectContaining({ interruptId: expect.stringMatching(/^approve-/), status: "resolved" })]);
    expectPage(await page.locator(".cagr-decision-card .cagr-card-status").textContent()).toBe("Approved.");
    await savedWithRunsEnded(page);

    // Answered, then reloaded: the card says how it was answered, and cannot be answered again.
    await reload(page);
    await messages(page).getByText("Done: deleted notes.txt").waitFor();
    await page.locator(".cagr-decision-card .cagr-card-status").filter({ hasText: "Approved." }).waitFor();
    expectPage(await page.getByRole("button", { name: "Approve", exact: true }).isDisabled()).toBe(true);
    await snapshot("persist-card-answered-after-reload");
  });

  it("keeps a pending card answerable after a reload in the React page too (renderUserDefinedResponse)", async () => {
    const { page, send, snapshot } = await demo.open("react");
    const approve = await reloadedWithCard(page, send);
    await snapshot("persist-react-card-after-reload");
    await approve.click();
    await messages(page).getByText("Done: deleted notes.txt").waitFor();
    expectPage(demo.agent!.inputs.at(-1)!.resume).toEqual([expect.objectContaining({ status: "resolved" })]);
  });

  it("shows an answer cut by a reload as stopped, keeps its text, and the thread stays usable", async () => {
    const { page, send, snapshot } = await demo.open();
    await send("Tell me a story");
    await messages(page).getByText("Once upon a time").waitFor();
    await page.waitForTimeout(300);
    await reload(page);
    const story = messages(page).filter({ hasText: "Once upon a time" });
    await story.getByText("Response stopped").waitFor();
    expectPage(await shownText(story)).toContain("in a data centre far away");
    await snapshot("persist-reload-mid-stream");
    await send("Do you remember what we said?");
    await messages(page).getByText(/has \d+ messages so far/).waitFor();
  });

  it("re-arms a card whose resume failed before its first event, across a reload", async () => {
    const { page, send, snapshot } = await demo.open();
    await send("Please delete my flaky files");
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    // The card is drawn in the slot Carbon gives it, outside the message element.
    await page.locator(".cagr-card-status", { hasText: /could not go on/ }).waitFor();
    await savedWithRunsEnded(page);
    await reload(page);
    const approve = page.getByRole("button", { name: "Approve", exact: true });
    await approve.waitFor();
    expectPage(await page.evaluate(() => window.adapter.pendingInterrupts.map((entry) => entry.decision?.type))).toEqual(["approve"]);
    await snapshot("persist-failed-resume-after-reload");
    await approve.click();
    await messages(page).getByText("Done: deleted notes.txt").waitFor();
  });

  it("discards a stored conversation of another version: the chat starts on a new thread and says so", async () => {
    const { page, snapshot } = await demo.open("?thread=from-an-old-version");
    // Once the page's store has opened (and so created) its database.
    await page.evaluate(() => window.adapter.listThreads());
    await page.evaluate(async () => {
      const database = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open("carbon-agui-rx");
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const transaction = database.transaction("conversations", "readwrite");
      transaction.objectStore("conversations").put({ version: 0, threadId: "from-an-old-version", turns: [] }, "snapshot:from-an-old-version");
      await new Promise((resolve) => (transaction.oncomplete = resolve));
    });
    await reload(page);
    // The chat's own line for it sits under Carbon's home screen (still open from before the reload, as Carbon keeps it per tab).
    await page.getByRole("status").getByText(/has version 0; this library reads versions 1 and 2, so it was discarded/).waitFor();
    await page.waitForFunction(() => new URL(location.href).searchParams.get("thread") !== "from-an-old-version");
    await snapshot("persist-old-version");
    expectPage(threadOf(page)).not.toBe("from-an-old-version");
  });

  it("goes on when the store fails to save (a full quota), and says so", async () => {
    const { page, send, snapshot } = await demo.open("", async (fresh) => {
      await fresh.addInitScript(() => {
        IDBObjectStore.prototype.put = () => {
          throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        };
      });
    });
    await send("Hi there");
    await messages(page).locator("strong", { hasText: "scripted AG-UI agent" }).waitFor();
    await page.getByRole("status").getByText("QuotaExceededError").waitFor();
    await send("Do you remember what we said?");
    await messages(page).getByText("has 3 messages so far").waitFor();
    await snapshot("persist-store-fails");
  });

  it("tells a second tab on the same thread that the other tab saved it, and a reload there shows the latest", async () => {
    // Two tabs of one browser profile: a context of their own, sharing its IndexedDB, localStorage and BroadcastChannel.
    const { page: opener } = await demo.open();
    const context = await opener.context().browser()!.newContext(PAGE_OPTIONS);
    try {
      const first = await openChatPage(await context.newPage(), demo.url);
      await first.send("Hi there");
      await messages(first.page).locator("strong", { hasText: "scripted AG-UI agent" }).waitFor();
      await savedWithRunsEnded(first.page);
      const second = await openChatPage(await context.newPage(), first.page.url());
      await messages(second.page).locator("strong", { hasText: "scripted AG-UI agent" }).waitFor();
      await first.send("Do you remember what we said?");
      await messages(first.page).getByText("has 3 messages so far").waitFor();
      // The first tab saves at each change of the thread's log (the message, its run begun, its run ended): the notice comes with the first.
      await second.page.getByRole("status").getByText("This conversation changed in another tab").waitFor();
      await savedWithRunsEnded(first.page);
      await second.snapshot("persist-second-tab");
      await reload(second.page);
      await messages(second.page).getByText("has 3 messages so far").waitFor();
    } finally {
      await context.close();
    }
  });

  it("switches between threads back and forth from the list, and Carbon's restart starts a new one", async () => {
    const { page, send, snapshot } = await demo.open();
    await send("What's the weather in Oslo?");
    await messages(page).getByText("Oslo: 4 °C, sleet").waitFor();
    const weatherThread = threadOf(page);
    await savedWithRunsEnded(page);
    await page.getByRole("button", { name: "Restart conversation" }).click();
    await page.waitForFunction((old) => new URL(location.href).searchParams.get("thread") !== old, weatherThread);
    await send("Hi there");
    await messages(page).locator("strong", { hasText: "scripted AG-UI agent" }).waitFor();
    const helloThread = threadOf(page);
    await savedWithRunsEnded(page);

    const list = page.locator(".threads");
    await list.getByRole("button", { name: /^What's the weather in Oslo\?/ }).click();
    await messages(page).getByText("Oslo: 4 °C, sleet").waitFor();
    expectPage(threadOf(page)).toBe(weatherThread);
    expectPage(await messages(page).locator("strong", { hasText: "scripted AG-UI agent" }).count()).toBe(0);
    await snapshot("persist-switched-back");

    await list.getByRole("button", { name: /^Hi there/ }).click();
    await messages(page).locator("strong", { hasText: "scripted AG-UI agent" }).waitFor();
    expectPage(threadOf(page)).toBe(helloThread);
    expectPage(await messages(page).getByText("Oslo: 4 °C, sleet").count()).toBe(0);
    await reload(page);
    await messages(page).locator("strong", { hasText: "scripted AG-UI agent" }).waitFor();
    expectPage(threadOf(page)).toBe(helloThread);

    await list.getByRole("button", { name: "Delete “What's the weather in Oslo?”" }).click();
    await list.getByRole("button", { name: /^What's the weather/ }).waitFor({ state: "detached" });
    await snapshot("persist-thread-deleted");
  });
});
