import { expect as expectPage } from "@jest/globals";
import { mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { langGraphClient } from "../../examples/frameworks/langgraph";
import { STORY, type ConfirmedCall } from "../../examples/frameworks/langgraphGraph";
import { serveFramework, type FrameworkServer } from "../../examples/frameworks/serve";
import { startWebDemo, type WebDemo } from "../../examples/web/serve";
import { launchChromium, openChatPage, PAGE_OPTIONS, type ChatPage } from "./browser";
import { startStoryGate, type StoryGate } from "./storyGate";

/**
 * The LangGraph demo as `npm run demo:langgraph` serves it (the LangGraph API server with the example graph, behind
 * serveAgent's run and thread routes; the page's threads from examples/web/httpThreads.ts), in Chromium: threads
 * restored from the agent's server, in separate browser contexts as two devices (no storage shared). Screenshots go
 * to docs/screenshots/threads-*.png. The story's pace is the test's (`StoryGate`): a reload lands mid-answer, or after
 * the answer, because the test says so, whatever the machine's speed.
 */
const messages = (page: Page) => page.locator('[data-testid^="message-by-index"]');
/** The text a message shows: Carbon renders it inside shadow roots, which `textContent` leaves out. */
const shownText = (element: Locator) =>
  element.evaluate((root) => {
    const read = (node: Node): string =>
      node.nodeType === Node.TEXT_NODE ? (node.textContent ?? "") : node.nodeName === "STYLE" ? "" : [...((node as Element).shadowRoot?.childNodes ?? []), ...node.childNodes].map(read).join("");
    return read(root);
  });
/** The words of the chat's messages, each once (Carbon's screen-reader announcements left out). */
const chatText = async (page: Page) => (await Promise.all((await messages(page).all()).map(shownText))).join("\n");
const occurrences = (text: string, words: string) => text.split(words).length - 1;
/**
 * The chat's words once `words` show in them `times` times: Carbon draws an answer's markdown anew as the answer ends
 * or stops, and on a loaded machine the text is empty for a moment in between, so a read at the moment the last words
 * or the stop showed can read nothing. Asked again every 50 ms, for at most 20 s; a count over `times` is still read.
 */
async function chatShowing(page: Page, words: string, times = 1): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const shown = await chatText(page);
    if (occurrences(shown, words) >= times || Date.now() > deadline) return shown;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const threadOf = (page: Page) => new URL(page.url()).searchParams.get("thread");
const DOCS = join(__dirname, "../../docs/screenshots");
/** A screenshot into docs/screenshots, `height` tall (the whole thread in view). */
const shot = async (page: Page, name: string, height = PAGE_OPTIONS.viewport.height) => {
  mkdirSync(DOCS, { recursive: true });
  if (height !== page.viewportSize()?.height) await page.setViewportSize({ ...PAGE_OPTIONS.viewport, height });
  await page.mouse.move(5, 5);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(DOCS, `${name}.png`) });
};

let agent: FrameworkServer;
let demo: WebDemo;
let browser: Browser;
let gate: StoryGate;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  gate = await startStoryGate();
  // Read by the demos' story (the LangGraph server's child process inherits it).
  process.env.CARBON_AGUI_STORY_GATE = gate.url;
  agent = await serveFramework("langgraph");
  demo = await startWebDemo(agent.url, agent.threads);
  browser = await launchChromium();
}, 90_000);
beforeEach(() => gate.hold());
afterEach(async () => {
  gate.releaseAll();
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});
afterAll(async () => {
  await browser?.close();
  await demo?.close();
  await agent?.close();
  await gate?.close();
  delete process.env.CARBON_AGUI_STORY_GATE;
});

/** A device of its own: a fresh browser context (its own IndexedDB), on the demo at `query`. */
async function device(query = "", base = demo.url): Promise<ChatPage> {
  const context = await browser.newContext(PAGE_OPTIONS);
  contexts.push(context);
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  return openChatPage(page, `${base}${query}`);
}

/** The decisions the graph's confirming nodes received on the LangGraph thread (its tool messages). */
async function received(threadId: string): Promise<ConfirmedCall[]> {
  const { values } = await langGraphClient(agent.langGraphUrl!).threads.getState<{ messages?: Record<string, unknown>[] }>(threadId);
  return (values.messages ?? []).filter((message) => message.type === "tool" && String(message.content).includes('"interruptId"')).map((message) => JSON.parse(String(message.content)) as ConfirmedCall);
}

/** Until the URL names the thread (the demo puts it there once the thread has a message). */
const threadInUrl = async (page: Page) => {
  await page.waitForFunction(() => new URL(location.href).searchParams.has("thread"));
  return threadOf(page)!;
};

describe("threads restored from the LangGraph server in Chromium (the LangGraph demo)", () => {
  it("opens a thread on a second device: the same turns, the tool step and the pending card; its answer reaches the graph", async () => {
    const a = await device();
    // A fresh page names no thread until something is said (a reload of it must not look for it on the server).
    expectPage(threadOf(a.page)).toBeNull();
    await a.send("What's the weather in Paris?");
    await messages(a.page).getByText("It is sunny in Paris, 21 °C.").waitFor();
    const threadId = await threadInUrl(a.page);
    await a.send("Please delete my temp files");
    await a.page.getByRole("button", { name: "Approve", exact: true }).waitFor();
    const interruptIds = await a.page.evaluate(() => window.adapter.pendingInterrupts.map((entry) => entry.interrupt.id));
    expectPage(interruptIds).toHaveLength(1);
    await shot(a.page, "threads-device-a", 1000);

    // Another device, nothing stored: the thread from the LangGraph server.
    const b = await device(`?thread=${threadId}`);
    await messages(b.page).getByText("It is sunny in Paris, 21 °C.").waitFor();
    const approve = b.page.getByRole("button", { name: "Approve", exact: true });
    await approve.waitFor();
    expectPage(await b.page.evaluate(() => window.adapter.threadId)).toBe(threadId);
    expectPage(await b.page.evaluate(() => window.adapter.pendingInterrupts.map((entry) => entry.interrupt.id))).toEqual(interruptIds);
    // The same turns: the person's two questions and the agent's answers, each once; the tool step in the chain of thought.
    const shownA = await chatText(a.page);
    const shownB = await chatText(b.page);
    for (const words of ["What's the weather in Paris?", "Let me check.", "It is sunny in Paris, 21 °C.", "Please delete my temp files", "I need your approval first."]) {
      expectPage([words, occurrences(shownA, words)]).toEqual([words, 1]);
      expectPage([words, occurrences(shownB, words)]).toEqual([words, 1]);
    }
    expectPage(await messages(b.page).count()).toBe(await messages(a.page).count());
    await messages(b.page).getByText("How did I get this answer?").first().waitFor();
    expectPage(await b.page.locator(".cagr-decision-card .cagr-card-action").textContent()).toBe("Action: delete_files");
    expectPage(await b.page.locator(".notice").isHidden()).toBe(true);
    await shot(b.page, "threads-device-b", 1000);

    // Answered on the second device: the graph's interrupt() receives it.
    await approve.click();
    await messages(b.page).getByText("Deleted the files matching *.tmp.").waitFor();
    await b.page.locator(".cagr-decision-card .cagr-card-status", { hasText: "Approved." }).waitFor();
    expectPage((await received(threadId)).map((call) => [call.interruptId, call.done])).toEqual([[interruptIds[0], true]]);
    await shot(b.page, "threads-device-b-approved");
  });

  it("rejoins a run after a reload mid-answer: the whole answer shows once, and the run was not stopped", async () => {
    const a = await device();
    await a.send("Tell me a story");
    await messages(a.page).getByText("Once upon a time").waitFor();
    const threadId = await threadInUrl(a.page);
    // The story waits at its second chunk until the reload is done: the reloaded page finds the run going, whatever the machine's speed.
    const rejoined = a.page.waitForRequest((request) => request.url().endsWith(`/threads/${threadId}/running`), { timeout: 20_000 });
    await a.page.reload();
    await a.page.getByRole("textbox").first().waitFor();
    await rejoined;
    await messages(a.page).getByText("Once upon a time").waitFor();
    gate.releaseAll();
    await messages(a.page).getByText("pressed stop.").waitFor({ timeout: 20_000 });
    const story = STORY.join("");
    const shown = await chatShowing(a.page, STORY.join("").trim());
    expectPage(occurrences(shown, "Once upon a time")).toBe(1);
    expectPage(occurrences(shown, story.trim())).toBe(1);
    expectPage(shown).not.toContain("Response stopped");
    expectPage(shown).not.toContain("incomplete");
    await shot(a.page, "threads-reload-rejoined");
    // The run ended on the server as it would have without the reload: the story whole on the LangGraph thread.
    const { values } = await langGraphClient(agent.langGraphUrl!).threads.getState<{ messages?: { type: string; content: unknown }[] }>(threadId);
    expectPage(values.messages?.filter((message) => message.type === "ai").map((message) => message.content)).toEqual([story]);
  });

  // Every moment of the story: as it is asked for, then with each count of its chunks let through (`release(n)` lets n + 1
  // go), the whole story last (the run ends as the page reloads).
  it.each(STORY.map((_chunk, at) => [at === 0 ? "as the message is sent, before the run's first event" : `with ${at + 1} of its ${STORY.length} chunks sent`, at] as const))("never ends the server's run when the page reloads %s: the reload rejoins it and shows the whole answer once", async (_moment, chunks) => {
    const a = await device();
    const sent = a.page.waitForRequest((request) => request.method() === "POST" && new URL(request.url()).pathname.endsWith("/agent"));
    await a.send("Tell me a story");
    await sent;
    if (chunks > 0) {
      gate.release(chunks);
      await messages(a.page).getByText(STORY.slice(0, chunks).join("").trim()).waitFor();
    }
    const threadId = await threadInUrl(a.page);
    await a.page.reload();
    await a.page.getByRole("textbox").first().waitFor();
    gate.releaseAll();
    await messages(a.page).getByText("pressed stop.").waitFor({ timeout: 20_000 });
    const shown = await chatShowing(a.page, STORY.join("").trim());
    expectPage(occurrences(shown, "Once upon a time")).toBe(1);
    expectPage(occurrences(shown, STORY.join("").trim())).toBe(1);
    expectPage(shown).not.toContain("without answering");
    const { values } = await langGraphClient(agent.langGraphUrl!).threads.getState<{ messages?: { type: string; content: unknown }[] }>(threadId);
    expectPage(values.messages?.filter((message) => message.type === "ai").map((message) => message.content)).toEqual([STORY.join("")]);
  });

  it("restores a run that ended before the reload: the answer once and whole, no mark, nothing to rejoin", async () => {
    gate.releaseAll();
    const a = await device();
    await a.send("Tell me a story");
    await messages(a.page).getByText("pressed stop.").waitFor({ timeout: 20_000 });
    const threadId = await threadInUrl(a.page);
    let asked = false;
    a.page.on("request", (request) => (asked ||= request.url().endsWith(`/threads/${threadId}/running`)));
    await a.page.reload();
    await messages(a.page).getByText("pressed stop.").waitFor();
    const shown = await chatShowing(a.page, STORY.join("").trim());
    expectPage(occurrences(shown, "Once upon a time")).toBe(1);
    expectPage(occurrences(shown, STORY.join("").trim())).toBe(1);
    expectPage(shown).not.toContain("Response stopped");
    expectPage(shown).not.toContain("incomplete");
    expectPage(asked).toBe(false);
  });

  it("stops the LangGraph run with Carbon's stop button, on a live answer and on one rejoined after a reload", async () => {
    const runs = async (threadId: string) => (await langGraphClient(agent.langGraphUrl!).runs.list(threadId)).map((run) => run.status);
    const a = await device();
    await a.send("Tell me a story");
    await messages(a.page).getByText("Once upon a time").waitFor();
    const threadId = await threadInUrl(a.page);
    await a.page.getByRole("button", { name: /stop/i }).click();
    await messages(a.page).getByText("Response stopped").waitFor();
    // The page's stop route stopped the run where it runs: cancelled on the LangGraph server, not run to its end.
    for (let waited = 0; (await runs(threadId)).includes("running") && waited < 10_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expectPage(await runs(threadId)).toEqual(["interrupted"]);
    expectPage(occurrences(await chatText(a.page), "pressed stop.")).toBe(0);

    // Again, reloaded mid-answer (the story waits for the test): the rejoined answer's stop button stops the server's run too.
    gate.hold();
    await a.send("Another story, please");
    await messages(a.page).getByText("Once upon a time").nth(1).waitFor();
    const rejoined = a.page.waitForRequest((request) => request.url().endsWith(`/threads/${threadId}/running`), { timeout: 20_000 });
    await a.page.reload();
    await a.page.getByRole("textbox").first().waitFor();
    await rejoined;
    await messages(a.page).getByText("Once upon a time").nth(1).waitFor();
    await a.page.getByRole("button", { name: /stop/i }).click({ timeout: 10_000 });
    // The first answer's mark kept (this browser's cache), the second's new.
    await messages(a.page).getByText("Response stopped").nth(1).waitFor();
    for (let waited = 0; (await runs(threadId)).includes("running") && waited < 10_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expectPage(await runs(threadId)).toEqual(["interrupted", "interrupted"]);
    const stopped = await chatShowing(a.page, "Once upon a time", 2);
    expectPage(occurrences(stopped, "Once upon a time")).toBe(2);
    expectPage(occurrences(stopped, "pressed stop.")).toBe(0);
    await shot(a.page, "threads-stopped");
    // The thread goes on.
    gate.releaseAll();
    await a.send("Hello again");
    await messages(a.page).getByText("You said: Hello again").waitFor();
  });

  it("shows a thread changed on one device on the other after a reload", async () => {
    const a = await device();
    await a.send("Hello there");
    await messages(a.page).getByText("You said: Hello there").waitFor();
    const threadId = await threadInUrl(a.page);
    const b = await device(`?thread=${threadId}`);
    await messages(b.page).getByText("You said: Hello there").waitFor();
    await b.send("Hello from the phone");
    await messages(b.page).getByText("You said: Hello from the phone").waitFor();
    // The first device has the thread in its IndexedDB (the cache); the server's newer thread wins after a reload.
    expectPage(occurrences(await chatText(a.page), "Hello from the phone")).toBe(0);
    await a.page.reload();
    await messages(a.page).getByText("You said: Hello from the phone").waitFor();
    const shown = await chatText(a.page);
    expectPage(occurrences(shown, "You said: Hello there")).toBe(1);
    expectPage(occurrences(shown, "You said: Hello from the phone")).toBe(1);
    await shot(a.page, "threads-changed-elsewhere");
  });

  it("starts empty with one line when the agent's server is down at load, without a crash", async () => {
    // A page whose agent (the demo's node server) does not answer: a port nothing listens on.
    const dead = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const down = await startWebDemo(`http://127.0.0.1:${dead}/agent`, "http");
    try {
      const errors: string[] = [];
      const { page, send } = await device(`?thread=0b5e3e4c-1d2a-4f6b-9c1e-2a3b4c5d6e7f`, down.url);
      page.on("pageerror", (error) => errors.push(error.message));
      const line = "The agent's server did not answer, so this conversation could not be opened; a new one has started.";
      await messages(page).getByText(line).waitFor();
      expectPage(occurrences(await chatText(page), line)).toBe(1);
      // The page's own notice line says it too (the AgUiThreadServerError onError got).
      await page.locator(".notice").filter({ hasText: "This conversation could not be opened from the agent's server: it did not answer." }).waitFor();
      // A new thread has started, so the URL no longer names the one that could not be opened.
      await page.waitForFunction(() => !new URL(location.href).searchParams.has("thread"));
      await shot(page, "threads-server-down");
      // The chat goes on: a message says the agent cannot be reached, as for any run.
      await send("Hello?");
      await messages(page).getByText("The agent could not be reached.").waitFor();
      expectPage(errors).toEqual([]);
    } finally {
      await Promise.all(contexts.splice(0).map((context) => context.close()));
      await down.close();
    }
  });
});

describe("threads restored from CopilotKit's runtime in Chromium (the CopilotKit demo)", () => {
  let copilotKit: FrameworkServer;
  let page: WebDemo;
  beforeAll(async () => {
    copilotKit = await serveFramework("copilotkit");
    page = await startWebDemo(copilotKit.url, copilotKit.threads);
  });
  afterAll(async () => {
    await page?.close();
    await copilotKit?.close();
  });

  it("opens a thread on a second device through the connect route, answers its card there, and rejoins a run after a reload", async () => {
    const a = await device("", page.url);
    await a.send("What's the weather in Paris?");
    await messages(a.page).getByText("Here is what I found").waitFor();
    const threadId = await threadInUrl(a.page);
    await a.send("Please delete my temp files");
    await a.page.getByRole("button", { name: "Approve", exact: true }).waitFor();

    const b = await device(`?thread=${threadId}`, page.url);
    await messages(b.page).getByText("Here is what I found").waitFor();
    const approve = b.page.getByRole("button", { name: "Approve", exact: true });
    await approve.waitFor();
    const shownB = await chatText(b.page);
    for (const words of ["What's the weather in Paris?", "Let me look that up.", "Please delete my temp files", "I need your approval first."]) expectPage([words, occurrences(shownB, words)]).toEqual([words, 1]);
    expectPage(await b.page.locator(".cagr-decision-card .cagr-card-action").textContent()).toBe("Action: delete_files");
    await shot(b.page, "threads-copilotkit-device-b", 1000);
    await approve.click();
    await b.page.locator(".cagr-decision-card .cagr-card-status", { hasText: "Approved." }).waitFor();

    // A run still going when the page reloads (held open by the test until the reload is done): the reloaded page
    // rejoins it (the runtime's connect), the story once.
    await b.send("Tell me a story");
    await messages(b.page).getByText("its runs going.").waitFor();
    await b.page.reload();
    await b.page.getByRole("textbox").first().waitFor();
    await messages(b.page).getByText("its runs going.").waitFor();
    expectPage(await b.page.getByRole("button", { name: /stop/i }).count()).toBe(1);
    // Its end: the stop button gone once the held run finishes on the runtime.
    gate.release("hold");
    await b.page.getByRole("button", { name: /stop/i }).waitFor({ state: "detached", timeout: 10_000 });
    const shown = await chatShowing(b.page, "Once upon a time");
    expectPage(occurrences(shown, "Once upon a time")).toBe(1);
    expectPage(shown).not.toContain("Response stopped");
    await shot(b.page, "threads-copilotkit-rejoined");
  });
});
