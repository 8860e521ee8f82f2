import type { Browser } from "playwright-core";
import { PAGE_OPTIONS } from "../spec/e2e/browser";
import { longConversation } from "./longConversation";

export interface RestoreRun {
  /** From the page's navigation until Carbon's home screen shows, on a thread with nothing stored. */
  emptyMs: number;
  /** From the page's navigation until the restored conversation's last answer shows, and its pending card is in the page. */
  restoredMs: number;
}

/**
 * A `turns`-turn conversation (bench/longConversation.ts without tables: text, tool steps, reasoning, a custom card every 50
 * turns, a pending approval card last) written into the demo's IndexedDB store, then the page opened on its
 * thread: how long until its last message shows, against the same page on an empty thread.
 */
export async function measureRestore(browser: Browser, baseUrl: string, turns: number): Promise<RestoreRun> {
  const snapshot = longConversation(turns, { tables: false });
  const context = await browser.newContext(PAGE_OPTIONS);
  try {
    const page = await context.newPage();
    const emptyStart = Date.now();
    await page.goto(`${baseUrl}?thread=empty-thread`);
    await page.getByText("Hi! I'm a scripted AG-UI agent").waitFor();
    const emptyMs = Date.now() - emptyStart;
    // Once the page's store has opened (so created) its database.
    await page.evaluate("window.adapter.listThreads()");
    await page.evaluate(
      `((snapshot) => new Promise((resolve, reject) => {
        const request = indexedDB.open("carbon-agui-rx");
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const transaction = request.result.transaction("conversations", "readwrite");
          const store = transaction.objectStore("conversations");
          store.put(snapshot, "snapshot:" + snapshot.threadId);
          store.put({ threadId: snapshot.threadId, title: "long", savedAt: snapshot.savedAt }, "summary:" + snapshot.threadId);
          transaction.oncomplete = () => resolve(undefined);
        };
      }))(${JSON.stringify(snapshot)})`,
    );
    // A tab of its own: Carbon keeps its home screen open per tab (sessionStorage), over the history.
    const restored = await context.newPage();
    const restoredStart = Date.now();
    await restored.goto(`${baseUrl}?thread=${snapshot.threadId}`);
    // Carbon scrolls the last request to the top: the last answer shows, the card (slotted into it) is in the page below.
    await restored.getByText(`Turn ${turns}.`).waitFor();
    await restored.locator(".cagr-decision-card").getByText("Send the forecast to the team?").waitFor({ state: "attached" });
    const restoredMs = Date.now() - restoredStart;
    return { emptyMs, restoredMs };
  } finally {
    await context.close();
  }
}
