import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { createLangGraphAgent, langGraphClient, startLangGraphServer } from "../examples/frameworks/langgraph";
import { STORY } from "../examples/frameworks/langgraphGraph";
import { serveAgent } from "../examples/frameworks/serveAgent";
import { startWebDemo } from "../examples/web/serve";
import { PAGE_OPTIONS } from "../spec/e2e/browser";

/** The LangGraph SDK's client (from examples/frameworks' packages). */
type Client = ReturnType<typeof langGraphClient>;

/** What the seeded thread ends on. */
export interface SeededThread {
  threadId: string;
  /** How many LangChain messages the thread's state holds. */
  messages: number;
  /** The pending interrupt's id (the confirm_delete node's `interrupt()`). */
  interruptId: string;
  /** The words of the last answer, which Carbon shows above the pending card. */
  lastAnswer: string;
}

/** A turn's answer: ~600 characters of markdown, as bench/longConversation.ts's without tables. */
const answer = (turn: number) =>
  `**Turn ${turn}.** The forecast for Oslo is mild for the season, with light rain in the afternoon and a clearing sky by evening. ` +
  "Temperatures stay between 4 and 9 °C; winds from the south-west at 5–8 m/s.\n\n" +
  "- Take an umbrella after lunch.\n- Sunset is at 15:40.\n- Tomorrow looks drier.\n\n" +
  "Ask me about another city, or for the week ahead.";

/**
 * A `turns`-turn thread written straight into the LangGraph API server's state, with no model run:
 * `threads.create`, then one `threads.updateState` as the graph's "agent" node with the LangChain messages of
 * `turns - 1` turns (each a question, and every other turn an answer that calls `get_weather`, its tool message and
 * the answer after it; the others a plain answer), and the last turn's question with the model's answer calling
 * `delete_files`. Then a run with no input takes the thread on from that checkpoint: the graph's route sends it to
 * `confirm_delete`, whose `interrupt()` leaves the thread waiting on a pending interrupt (no model runs there either).
 * The thread's state then holds all of it, as `getState` gives it back (checked here).
 */
export async function seedLangGraphThread(client: Client, turns: number): Promise<SeededThread> {
  const { thread_id: threadId } = await client.threads.create({ graphId: "assistant" });
  const messages: Record<string, unknown>[] = [];
  for (let turn = 1; turn < turns; turn++) {
    messages.push({ id: `human-${turn}`, type: "human", content: `What is the weather in Oslo today? (question ${turn})` });
    if (turn % 2 === 0) {
      const callId = `call-${turn}`;
      messages.push(
        { id: `ai-call-${turn}`, type: "ai", content: "Let me check.", tool_calls: [{ id: callId, name: "get_weather", args: { city: "Oslo" }, type: "tool_call" }] },
        { id: `tool-${turn}`, type: "tool", tool_call_id: callId, name: "get_weather", content: JSON.stringify({ city: "Oslo", forecast: "rain, then clear", celsius: [4, 9] }) },
      );
    }
    messages.push({ id: `ai-${turn}`, type: "ai", content: answer(turn) });
  }
  const lastAnswer = `I need your approval first (turn ${turns}).`;
  messages.push(
    { id: `human-${turns}`, type: "human", content: `Delete my temp files (question ${turns})` },
    { id: `ai-${turns}`, type: "ai", content: lastAnswer, tool_calls: [{ id: `call-${turns}`, name: "delete_files", args: { pattern: "*.tmp" }, type: "tool_call" }] },
  );
  await client.threads.updateState(threadId, { values: { messages }, asNode: "agent" });
  // From the "agent" checkpoint, its route goes to confirm_delete, which interrupts.
  await client.runs.wait(threadId, "assistant", { input: null });
  const state = await client.threads.getState<{ messages?: { id?: string }[] }>(threadId);
  const held = state.values.messages ?? [];
  const interrupts = state.tasks.flatMap((task) => task.interrupts ?? []);
  if (held.length !== messages.length || held.some((message, index) => message.id !== messages[index]!.id)) {
    throw new Error(`The seeded thread holds ${held.length} messages, not the ${messages.length} written`);
  }
  const interruptId = interrupts[0]?.id;
  if (interrupts.length !== 1 || !interruptId) throw new Error(`The seeded thread waits on ${interrupts.length} interrupts, not one`);
  return { threadId, messages: held.length, interruptId, lastAnswer };
}

// ---------------------------------------------------------------------------
// The LangGraph demo, behind a timing proxy

/** A text delta of a rejoined run's stream, as the demo's node server sent it to the page (the proxy's clock, `Date.now()`). */
export interface SentDelta {
  at: number;
  delta: string;
}

/** The LangGraph demo as `npm run demo:langgraph` serves it, with a proxy in front of its AG-UI endpoint that notes what it sends. */
export interface ServerDemo {
  /** The LangGraph API server (the SDK's client talks to it directly). */
  readonly langGraphUrl: string;
  /** The demo page's base URL. */
  readonly pageUrl: string;
  /** Per thread, the text deltas of each `/running` stream the page read, in order. */
  readonly sent: Map<string, SentDelta[][]>;
  /** Holds the page's request for the thread (GET `/agent/threads/<id>`) at the proxy until `until` resolves. */
  hold(threadId: string, until: Promise<void>): void;
  close(): Promise<void>;
}

/**
 * Passes every request through to `target` (the AG-UI endpoint's origin) and its answer back as it comes, adding
 * `timing-allow-origin: *` (so the page's resource timing has the answer's first byte too); of a
 * `/agent/threads/<id>/running` stream it notes each TEXT_MESSAGE_CONTENT frame's delta and when it arrived from the
 * server, before passing it on. A request for a thread that is held waits at the proxy until its hold is released.
 */
async function startTimingProxy(target: string, sent: Map<string, SentDelta[][]>, held: Map<string, Promise<void>>): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (incoming, outgoing) => {
    const path = incoming.url ?? "/";
    const running = /\/agent\/threads\/([^/?]+)\/running/.exec(path);
    const thread = /\/agent\/threads\/([^/?]+)$/.exec(path);
    if (thread && incoming.method === "GET") await held.get(decodeURIComponent(thread[1]!));
    const upstream = request(`${target}${path}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, { ...answer.headers, "timing-allow-origin": "*" });
      const deltas: SentDelta[] = [];
      if (running) {
        const threadId = decodeURIComponent(running[1]!);
        sent.set(threadId, [...(sent.get(threadId) ?? []), deltas]);
      }
      let pending = "";
      answer.on("data", (chunk: Buffer) => {
        if (running) {
          const at = Date.now();
          pending += chunk.toString("utf8");
          const frames = pending.split("\n\n");
          pending = frames.pop() ?? "";
          for (const frame of frames) {
            const data = frame
              .split("\n")
              .filter((line) => line.startsWith("data:"))
              .map((line) => line.slice(5).trimStart())
              .join("\n");
            if (!data) continue;
            const event = JSON.parse(data) as { type?: string; delta?: string };
            if (event.type === "TEXT_MESSAGE_CONTENT" && typeof event.delta === "string") deltas.push({ at, delta: event.delta });
          }
        }
        outgoing.write(chunk);
      });
      answer.on("end", () => outgoing.end());
    });
    upstream.on("error", () => outgoing.destroy());
    incoming.pipe(upstream);
    // The page gone (a closed tab): the server's stream goes too, as it would without the proxy.
    outgoing.on("close", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The LangGraph API server (a child process), `serveAgent` with `LangGraphAgent` and its thread routes, the timing proxy, and the demo page pointed at the proxy with the demo's thread API (`AGUI_THREADS` "http", as `npm run demo:langgraph` serves it). */
export async function startServerDemo(): Promise<ServerDemo> {
  const closing: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const step of closing.reverse()) await step();
  };
  try {
    const langGraph = await startLangGraphServer();
    closing.push(() => langGraph.close());
    const endpoint = await serveAgent(createLangGraphAgent(langGraph.url), 0);
    closing.push(() => endpoint.close());
    const sent = new Map<string, SentDelta[][]>();
    const held = new Map<string, Promise<void>>();
    const proxy = await startTimingProxy(new URL(endpoint.url).origin, sent, held);
    closing.push(() => proxy.close());
    const web = await startWebDemo(`${proxy.url}/agent`, "http");
    closing.push(() => web.close());
    return { langGraphUrl: langGraph.url, pageUrl: web.url, sent, hold: (threadId, until) => held.set(threadId, until), close };
  } catch (error) {
    await close();
    throw error;
  }
}

// ---------------------------------------------------------------------------
// In the page

/**
 * Runs before the demo page's own script: a watch notes, at each animation frame, what the chat shows (page clock,
 * `performance.now()`): with the decision card asking `card` in the page, `window.__watch.inDomAt` once the text
 * `lastText` is in a message of Carbon's that has a box (Playwright's "visible", as bench/restore.ts waits for), and
 * `lastAt` once that message is inside the viewport too (Carbon has scrolled to it); `homeAt` once Carbon's home screen greeting is; `shown`,
 * each change of the latest message's text (for a rejoined run). It also notes when `loadHistory` resolved and each
 * `addMessageChunk`'s text, with when it was called.
 */
const WATCH = `((options) => {
  const watch = { shown: [], chunks: [] };
  window.__watch = watch;
  let adapter;
  Object.defineProperty(window, "adapter", { configurable: true, get: () => adapter, set: (value) => {
    adapter = value;
    const loadHistory = value.loadHistory;
    value.loadHistory = (...args) => Promise.resolve(loadHistory(...args)).then((history) => { watch.historyAt = performance.now(); watch.historyItems = history.length; return history; });
  } });
  let instance;
  Object.defineProperty(window, "chatInstance", { configurable: true, get: () => instance, set: (value) => {
    instance = value;
    const messaging = value.messaging;
    const addMessageChunk = messaging.addMessageChunk;
    let text = "";
    messaging.addMessageChunk = function (chunk) {
      const part = chunk && chunk.partial_item && chunk.partial_item.text;
      if (typeof part === "string") { text += part; watch.chunks.push({ at: performance.now(), text }); }
      return addMessageChunk.call(this, chunk);
    };
  } });
  const internal = () => document.querySelector("cds-aichat-custom-element")?.shadowRoot
    ?.querySelector("cds-aichat-container")?.shadowRoot?.querySelector("cds-aichat-internal")?.shadowRoot;
  const shownText = (message) => Array.from(message.querySelectorAll("cds-aichat-markdown"), (markdown) => markdown.shadowRoot?.textContent ?? "").join("");
  const onScreen = (element) => { const box = element.getBoundingClientRect(); return box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < innerHeight && element.checkVisibility(); };
  const deepHas = (root, text) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.currentNode; node; node = walker.nextNode()) {
      if (node.nodeType === Node.TEXT_NODE) { if (node.data.includes(text) && onScreen(node.parentElement)) return true; }
      else if (node.shadowRoot && deepHas(node.shadowRoot, text)) return true;
    }
    return false;
  };
  let last = "";
  const frame = (now) => {
    const root = internal();
    if (root) {
      const messages = root.querySelectorAll('[data-testid^="message-by-index"]');
      const latest = messages[messages.length - 1];
      if (latest) {
        const text = shownText(latest);
        if (text !== last) { last = text; watch.shown.push({ at: now, text }); }
      }
      if (options.lastText && watch.lastAt === undefined) {
        const card = Array.from(document.querySelectorAll(".cagr-decision-card")).some((element) => element.textContent.includes(options.card));
        for (let index = messages.length - 1; card && index >= Math.max(0, messages.length - 4); index--) {
          const message = messages[index];
          if (!shownText(message).includes(options.lastText)) continue;
          const box = message.getBoundingClientRect();
          if (box.width > 0 && box.height > 0) watch.inDomAt ??= now;
          if (onScreen(message)) { watch.lastAt = now; break; }
        }
      }
      if (options.home && watch.homeAt === undefined && deepHas(root, options.home)) watch.homeAt = now;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})`;

/** When, in the page's clock, the thread's answer from the demo's thread API was received: its first byte and its last. */
async function threadAnswer(page: Page, threadId: string): Promise<{ responseStart: number; responseEnd: number; bytes: number }> {
  return page.evaluate((id) => {
    const entry = performance
      .getEntriesByType("resource")
      .find((candidate) => candidate.name.endsWith(`/agent/threads/${encodeURIComponent(id)}`)) as PerformanceResourceTiming | undefined;
    if (!entry) throw new Error(`No request for the thread ${id} in the page's resource timing`);
    return { responseStart: entry.responseStart, responseEnd: entry.responseEnd, bytes: entry.encodedBodySize };
  }, threadId);
}

interface Watch {
  inDomAt?: number;
  lastAt?: number;
  homeAt?: number;
  historyAt?: number;
  historyItems?: number;
  shown: { at: number; text: string }[];
  chunks: { at: number; text: string }[];
}

const GREETING = "Hi! I'm a scripted AG-UI agent";

export interface ServerOpenRun {
  /** The thread's answer received (responseEnd) → the last message on screen with its card (or, empty: the home screen). */
  answerToShownMs: number;
  /** The answer received → the last message in Carbon's DOM with a box, not yet scrolled to (empty: as shown). */
  answerToInDomMs: number;
  /** The answer received → `loadHistory` resolved (the adapter's part). */
  answerToHistoryMs: number;
  /** The page's navigation → the answer received. */
  navigationToAnswerMs: number;
  /** The page's navigation → shown. */
  navigationToShownMs: number;
  /** The answer's first byte → its last. */
  transferMs: number;
  bytes: number;
}

/** The demo page, in a fresh context (another device: nothing stored), opened on `threadId`: until `lastText` (or, for an empty thread, Carbon's home screen) shows. */
export async function measureServerOpen(browser: Browser, demo: ServerDemo, threadId: string, shows: { lastText: string; card: string } | "home"): Promise<ServerOpenRun> {
  const context = await browser.newContext(PAGE_OPTIONS);
  try {
    const page = await context.newPage();
    await page.addInitScript(`${WATCH}(${JSON.stringify(shows === "home" ? { home: GREETING } : shows)})`);
    await page.goto(`${demo.pageUrl}?thread=${encodeURIComponent(threadId)}`);
    await page.waitForFunction(shows === "home" ? "window.__watch.homeAt !== undefined" : "window.__watch.lastAt !== undefined", undefined, { timeout: 60_000 });
    const watch = (await page.evaluate("window.__watch")) as Watch;
    const answer = await threadAnswer(page, threadId);
    const shownAt = (shows === "home" ? watch.homeAt : watch.lastAt)!;
    return {
      answerToShownMs: shownAt - answer.responseEnd,
      answerToInDomMs: (shows === "home" ? shownAt : watch.inDomAt!) - answer.responseEnd,
      answerToHistoryMs: watch.historyAt! - answer.responseEnd,
      navigationToAnswerMs: answer.responseEnd,
      navigationToShownMs: shownAt,
      transferMs: answer.responseEnd - answer.responseStart,
      bytes: answer.bytes,
    };
  } finally {
    await context.close();
  }
}

/** How long after the run is running the page's request for its thread goes through: the story's words come 150 ms apart. */
const JOIN_AFTER_MS = 600;

/** Until `condition` holds (checked every 20 ms), at most `ms`. */
async function waitUntil(condition: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  for (const started = Date.now(); !(await condition()); ) {
    if (Date.now() - started > ms) throw new Error(`waitUntil: the condition did not hold within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface RejoinRun {
  /** The first text delta the server sent live to the rejoined page (after the replay) → that text on screen. */
  firstNewTextMs: number;
  /** The same delta sent → handed to Carbon (`addMessageChunk`): the adapter's part. */
  firstNewChunkMs: number;
  /** How many deltas came in the replay, before it; how many live, it among them. */
  replayed: number;
  live: number;
  /** Every later live delta sent → on screen (the median of the run). */
  laterMedianMs: number;
}

/**
 * A "story" run started on the server (`runs.create` with `streamResumable: true`, as a page that asked and went
 * away leaves it), the demo page opened on its thread in a fresh context, its request for the thread let through
 * `JOIN_AFTER_MS` after the run is `running` (a few of the story's words told): the page rejoins it through the demo's
 * `/running` route, which replays the run's events from its start, then goes on live. The first
 * new text is the first delta the proxy saw arrive 50 ms or more after the frame before it (the replay comes in one
 * burst; the story's live words come 150 ms apart).
 */
export async function measureRejoin(browser: Browser, demo: ServerDemo, query = ""): Promise<RejoinRun> {
  const client = langGraphClient(demo.langGraphUrl);
  const { thread_id: threadId } = await client.threads.create({ graphId: "assistant" });
  // The page's request for the thread waits at the proxy until the run has told part of the story (a page opening
  // mid-run), whatever the page's own load time.
  let release = () => undefined as void;
  demo.hold(threadId, new Promise<void>((resolve) => (release = resolve)));
  const context = await browser.newContext(PAGE_OPTIONS);
  try {
    const page = await context.newPage();
    await page.addInitScript(`${WATCH}({})`);
    await page.goto(`${demo.pageUrl}?thread=${encodeURIComponent(threadId)}${query}`);
    const run = await client.runs.create(threadId, "assistant", {
      input: { messages: [{ id: `u-story-${threadId}`, type: "human", content: "Tell me a story" }] },
      streamMode: ["events", "values", "updates", "messages-tuple"],
      streamResumable: true,
    });
    await waitUntil(async () => (await client.runs.get(threadId, run.run_id)).status === "running", 10_000);
    await new Promise((resolve) => setTimeout(resolve, JOIN_AFTER_MS));
    release();
    const whole = STORY.join("").trim();
    await page.waitForFunction((text) => (window as unknown as { __watch: Watch }).__watch.shown.some((one) => one.text.includes(text)), whole, { timeout: 30_000 });
    const { watch, timeOrigin } = (await page.evaluate("({ watch: window.__watch, timeOrigin: performance.timeOrigin })")) as { watch: Watch; timeOrigin: number };
    await waitUntil(async () => (await client.runs.get(threadId, run.run_id)).status === "success", 10_000);
    // The page may open the running route more than once (a read let go of before any text); the story came in one.
    const streams = (demo.sent.get(threadId) ?? []).filter((one) => one.length > 0);
    const deltas = streams[0] ?? [];
    if (streams.length !== 1) throw new Error(`The page read the story in ${streams.length} running streams, not one`);
    const firstLive = deltas.findIndex((one, index) => index > 0 && one.at - deltas[index - 1]!.at >= 50);
    if (firstLive < 0) throw new Error("The page joined after the story's last word: no live delta");
    const shownAt = (index: number, seen: { at: number; text: string }[]) => {
      const prefix = deltas
        .slice(0, index + 1)
        .map((one) => one.delta)
        .join("")
        .trim();
      const found = seen.find((one) => one.text.includes(prefix));
      if (!found) throw new Error(`"${prefix}" never showed`);
      return timeOrigin + found.at - deltas[index]!.at;
    };
    const later = deltas.slice(firstLive + 1).map((_, offset) => shownAt(firstLive + 1 + offset, watch.shown));
    return {
      firstNewTextMs: shownAt(firstLive, watch.shown),
      firstNewChunkMs: shownAt(firstLive, watch.chunks),
      replayed: firstLive,
      live: deltas.length - firstLive,
      laterMedianMs: later.length > 0 ? [...later].sort((a, b) => a - b)[Math.floor(later.length / 2)]! : NaN,
    };
  } finally {
    release();
    await context.close();
  }
}
