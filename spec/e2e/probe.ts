import type { Page } from "playwright-core";

/** What the probe saw in the page since it was installed; times are the page's `performance.now()`. */
export interface Probe {
  /** `addMessageChunk` calls. */
  chunks: number;
  /** The longest task the browser reported (`longtask` entries are tasks over 50 ms); 0 when none was. */
  longestTask: number;
  /** The longest time between two animation frames. */
  longestFrameGap: number;
  /** The first Enter keydown. */
  enterAt?: number;
  /** The demo's long answer (`LONG_ANSWER`): its first sentence visible, and its last words. */
  firstTextAt?: number;
  wholeTextAt?: number;
  /** The first pointerdown, and how many characters of the answer were visible when the page handled it. */
  clickAt?: number;
  textAtClick?: number;
  /** "Response stopped" visible under the answer. */
  stoppedAt?: number;
}

/** Counts `addMessageChunk` calls in `probe.chunks` and keeps the longest task in `probe.longestTask` (page JavaScript, for inside a function that has `probe`). */
const COUNT_CHUNKS_AND_TASKS = `
  const messaging = window.chatInstance.messaging;
  const addMessageChunk = messaging.addMessageChunk;
  messaging.addMessageChunk = function (chunk) {
    probe.chunks++;
    return addMessageChunk.call(this, chunk);
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longestTask = Math.max(probe.longestTask, entry.duration);
  }).observe({ type: "longtask" });`;

/**
 * Watches the demo page from inside: wraps Carbon's `addMessageChunk` to
 * count calls, observes long tasks and animation frames, and follows the
 * latest message with a MutationObserver. Carbon renders markdown inside
 * nested shadow roots, so the observer follows each one as it appears.
 * Plain JavaScript, as the page runs it.
 */
const PROBE = `(() => {
  const root = document.querySelector("cds-aichat-custom-element").shadowRoot
    .querySelector("cds-aichat-container").shadowRoot.querySelector("cds-aichat-internal").shadowRoot;
  const probe = { chunks: 0, longestTask: 0, longestFrameGap: 0 };
  ${COUNT_CHUNKS_AND_TASKS}
  let lastFrame = performance.now();
  const frame = (now) => {
    probe.longestFrameGap = Math.max(probe.longestFrameGap, now - lastFrame);
    lastFrame = now;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  const answer = () => {
    const messages = root.querySelectorAll('[data-testid^="message-by-index"]');
    return messages[messages.length - 1];
  };
  const shownText = (message) => Array.from(message.querySelectorAll("cds-aichat-markdown"), (markdown) => markdown.shadowRoot?.textContent ?? "").join("");
  addEventListener("keydown", (event) => { if (event.key === "Enter") probe.enterAt ??= performance.now(); }, true);
  addEventListener("pointerdown", () => {
    probe.clickAt ??= performance.now();
    probe.textAtClick ??= shownText(answer()).length;
  }, true);
  const observed = new WeakSet();
  const observer = new MutationObserver(() => {
    const message = answer();
    if (!message) return;
    for (const markdown of message.querySelectorAll("cds-aichat-markdown")) if (markdown.shadowRoot) observe(markdown.shadowRoot);
    const text = shownText(message);
    const now = performance.now();
    if (text.includes("Sentence 1 ")) probe.firstTextAt ??= now;
    if (text.includes("The end.")) probe.wholeTextAt ??= now;
    if (message.textContent.includes("Response stopped")) probe.stoppedAt ??= now;
  });
  const observe = (node) => {
    if (observed.has(node)) return;
    observed.add(node);
    observer.observe(node, { subtree: true, childList: true, characterData: true });
  };
  observe(root);
  window.__probe = probe;
})()`;

/** Installs the probe; call it once the page is idle, as it counts from then on. */
export const installProbe = (page: Page): Promise<void> => page.evaluate(PROBE);

/** Installs only the chunk count and the longest task (`chunks`, `longestTask`): nothing that runs on every frame or mutation. */
export const installTaskProbe = (page: Page): Promise<void> => page.evaluate(`(() => {
  const probe = (window.__probe = { chunks: 0, longestTask: 0, longestFrameGap: 0 });
  ${COUNT_CHUNKS_AND_TASKS}
})()`);

export const readProbe = (page: Page): Promise<Probe> => page.evaluate("window.__probe") as Promise<Probe>;

/** Waits until the probe has seen `field` (a time). */
export const probeSaw = (page: Page, field: keyof Probe, timeout = 120_000) => page.waitForFunction(`window.__probe.${field} !== undefined`, undefined, { timeout });
