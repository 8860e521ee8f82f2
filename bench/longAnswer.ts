/**
 * The long-answer measurement of the browser bench: a markdown answer
 * (headings, lists, code blocks, links) streamed at 1,000 characters a second
 * as deltas of ~4 characters by an agent of our own, through the real demo
 * page, with and without the page's CPU throttled through the DevTools
 * protocol. From a Chrome trace: the renderer main thread's busy share (top-
 * level tasks). From inside the page: when the whole text became visible,
 * the gaps between animation frames, and how long periodic clicks waited
 * before their handler ran (input delay). The adapter is the demo's, or
 * another one a `setUp` puts in its place (bench/seedBrowser.ts); a run can
 * give up on the whole text some time after the agent's last delta.
 */
import type { RunAgentInput } from "@ag-ui/core";
import { ev, startAgentServer, type AgentServer, type SseResponse } from "carbon-agui-rx/testing";
import { writeFileSync } from "node:fs";
import type { Browser, CDPSession, Page } from "playwright-core";
import { openChatPage, PAGE_OPTIONS } from "../spec/e2e/browser";

/** The answer's pace: characters a second, and characters per delta. */
export const CHARS_PER_SECOND = 1_000;
const CHARS_PER_DELTA = 4;
/** How often the agent writes the deltas due by then (by the clock, so timer drift does not slow the pace). */
const TICK_MS = 16;
const THE_END = "The end of the long answer.";
/** The first answer on each page: a bit of every kind of markdown, so Carbon has loaded its lazy parts (the code block's above all) before the measurement. */
const WARM_UP = "Ready.\n\n## A heading\n\n- a list with [a link](https://example.com)\n\n1. numbered\n\n```ts\nconst warm = true;\n```\n\nDone warming up.";

/** A markdown answer of about `length` characters, ending with THE_END. */
export function markdownAnswer(length: number): string {
  const sections: string[] = [];
  for (let index = 1; sections.join("").length < length - 200; index++) {
    sections.push(
      [
        `## Part ${index}: notes on streaming\n\n`,
        `Streaming answers arrive in **small deltas**, and the chat shows them as they come. See [the AG-UI docs](https://docs.ag-ui.com/concepts/events) and [Carbon AI Chat](https://chat.carbondesignsystem.com/) for the details of part ${index}.\n\n`,
        `- First, the agent emits \`TEXT_MESSAGE_CONTENT\` events;\n- then the adapter merges them into chunks;\n- finally Carbon renders the markdown, item ${index}.\n\n`,
        "```ts\n",
        `const part${index} = events.pipe(agUiToCarbon({ responseId: "r${index}" }));\npart${index}.subscribe((chunk) => instance.messaging.addMessageChunk(chunk));\n`,
        "```\n\n",
        `1. Measure the main thread.\n2. Keep redraws within budget.\n3. Repeat for section ${index}.\n\n`,
      ].join(""),
    );
  }
  return `${sections.join("")}${THE_END}`;
}

/** An agent that answers "long markdown" with the answer, paced; anything else with a short line. It records when it wrote the last delta. */
export async function startPacedAgent(text: string): Promise<AgentServer & { lastDeltaAt(): number | undefined }> {
  let lastDeltaAt: number | undefined;
  const say = (sse: SseResponse, input: RunAgentInput, pieces: string[], done: () => void) => {
    const messageId = `a-${input.runId}`;
    sse.send(ev.runStarted(input.runId, input.threadId));
    sse.send(ev.textStart(messageId));
    let next = 0;
    const start = Date.now();
    const tick = () => {
      const due = Math.min(pieces.length, 1 + Math.floor(((Date.now() - start) * CHARS_PER_SECOND) / CHARS_PER_DELTA / 1000));
      while (next < due) sse.send(ev.text(messageId, pieces[next++]!));
      if (next < pieces.length) return void setTimeout(tick, TICK_MS);
      done();
      sse.send(ev.textEnd(messageId));
      sse.send(ev.runFinished());
      sse.end();
    };
    tick();
  };
  const server = await startAgentServer((input, sse) => {
    const last = input.messages.at(-1);
    const long = typeof last?.content === "string" && last.content.includes("long markdown");
    lastDeltaAt = undefined;
    say(sse, input, long ? cut(text) : [WARM_UP], () => (lastDeltaAt = Date.now()));
  });
  return Object.assign(server, { lastDeltaAt: () => lastDeltaAt });
}

const cut = (text: string) => Array.from({ length: Math.ceil(text.length / CHARS_PER_DELTA) }, (_, index) => text.slice(index * CHARS_PER_DELTA, (index + 1) * CHARS_PER_DELTA));

/** In the page: marks the first chunk and the whole text in the trace (user timing), and records frame gaps and input delays. */
const PROBE = (theEnd: string) => `(() => {
  const root = document.querySelector("cds-aichat-custom-element").shadowRoot
    .querySelector("cds-aichat-container").shadowRoot.querySelector("cds-aichat-internal").shadowRoot;
  const probe = { chunks: 0, shownChars: 0, frameGaps: [], inputDelays: [] };
  // Progress, sent out at most every 500 ms through a binding, which reaches the bench even while the page stays busy.
  let reported = -Infinity;
  const report = (now = performance.now()) => {
    if (now - reported < 500 && probe.wholeTextAt === undefined) return;
    reported = now;
    window.__longProgress?.({ chunks: probe.chunks, shownChars: probe.shownChars });
  };
  const messaging = window.chatInstance.messaging;
  const addMessageChunk = messaging.addMessageChunk;
  messaging.addMessageChunk = function (chunk) {
    if (probe.chunks++ === 0) { performance.mark("first-chunk"); probe.firstChunkAt = performance.now(); }
    report();
    return addMessageChunk.call(this, chunk);
  };
  let lastFrame;
  const frame = (now) => {
    if (probe.firstChunkAt !== undefined && probe.wholeTextAt === undefined && lastFrame !== undefined) probe.frameGaps.push(now - lastFrame);
    lastFrame = now;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  // A click made while the text streams counts, even if the page could only handle it once the whole text showed.
  addEventListener("pointerdown", (event) => {
    if (probe.firstChunkAt !== undefined && event.timeStamp >= probe.firstChunkAt && !(event.timeStamp >= probe.wholeTextAt)) probe.inputDelays.push(performance.now() - event.timeStamp);
  }, true);
  const answer = () => {
    const messages = root.querySelectorAll('[data-testid^="message-by-index"]');
    return messages[messages.length - 1];
  };
  const shown = (message) => Array.from(message.querySelectorAll("cds-aichat-markdown"), (markdown) => markdown.shadowRoot?.textContent ?? "").join("");
  const observed = new WeakSet();
  const observe = (node) => {
    if (observed.has(node)) return;
    observed.add(node);
    observer.observe(node, { subtree: true, childList: true, characterData: true });
  };
  const observer = new MutationObserver(() => {
    const message = answer();
    if (!message || probe.wholeTextAt !== undefined) return;
    for (const markdown of message.querySelectorAll("cds-aichat-markdown")) if (markdown.shadowRoot) observe(markdown.shadowRoot);
    const text = shown(message);
    probe.shownChars = text.length;
    if (text.includes(${JSON.stringify(theEnd)})) {
      probe.wholeTextAt = performance.now();
      probe.wholeTextWallAt = performance.timeOrigin + probe.wholeTextAt;
      performance.mark("whole-text");
    }
    report();
  });
  observe(root);
  window.__longProbe = probe;
})()`;

interface LongProbe {
  chunks: number;
  shownChars: number;
  frameGaps: number[];
  inputDelays: number[];
  firstChunkAt?: number;
  wholeTextAt?: number;
  wholeTextWallAt?: number;
}

export interface LongAnswerRun {
  /** Main-thread busy share (0–1) from the first chunk to the whole text, and over its last 5 s (absent when not traced). */
  busy?: number;
  busyLast5s?: number;
  /** Last delta written by the agent → whole text visible, ms; absent when the run gave up first. */
  lagMs?: number;
  /** Share of frame gaps over 50 ms, and the longest gap (after a give-up, until the page handed them over). */
  longFrames: number;
  maxFrameGapMs: number;
  /** Input delays of the clicks during the stream, ms. */
  inputDelays: number[];
  /** `addMessageChunk` calls from the first chunk on (until the give-up, when the run gave up). */
  chunks: number;
  /** Characters of the answer Carbon showed: all of its text, or what it had shown by the give-up. */
  shownChars: number;
  /** Whether the frame and input figures are missing: the page was still too busy to hand them over some seconds after the give-up. */
  pageBusy?: true;
}

export interface LongAnswerOptions {
  /** Runs once the page is open, before its first answer: to put another adapter in the demo's place. */
  setUp?: (page: Page) => Promise<void>;
  /** Gives up on the whole text this long after the agent's last delta (lagMs then absent). Default: waits until `timeoutMs`. */
  giveUpAfterLastDeltaMs?: number;
  /** Records a Chrome trace for the busy shares (default true). */
  trace?: boolean;
  /** Where to save the Chrome trace (it opens in the DevTools Performance panel), if anywhere. */
  traceFile?: string;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string };
}

/** Streams the answer once into a fresh demo page (`query`: the page's options) with the CPU slowed `throttle` times. */
export async function measureLongAnswer(
  browser: Browser,
  pageUrl: string,
  agent: Awaited<ReturnType<typeof startPacedAgent>>,
  query: string,
  throttle: number,
  timeoutMs: number,
  { setUp, giveUpAfterLastDeltaMs, trace: traced = true, traceFile }: LongAnswerOptions = {},
): Promise<LongAnswerRun> {
  const page = await browser.newPage(PAGE_OPTIONS);
  try {
    const chat = await openChatPage(page, `${pageUrl}?${query}`);
    await setUp?.(page);
    await chat.send("Hi there");
    await page.locator('[data-testid^="message-by-index"]').getByText("Done warming up.").waitFor();
    await page.waitForTimeout(1_000);
    let progress = { chunks: 0, shownChars: 0 };
    await page.exposeBinding("__longProgress", (_source, latest: typeof progress) => void (progress = latest));
    await page.evaluate(PROBE(THE_END));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: throttle });
    const trace = traced ? await startTrace(cdp) : undefined;
    const asked = Date.now();
    await ask(page, agent, "long markdown please");
    let over = false;
    const shown = page.waitForFunction("window.__longProbe.wholeTextAt !== undefined", undefined, { timeout: timeoutMs, polling: 250 });
    // After a give-up the page is closed under the wait.
    shown.then(() => (over = true)).catch(() => undefined);
    // Told from here, not by asking the page: a page busy for seconds still gets its clicks, and their delays count.
    const clicking = clickPeriodically(page, () => over);
    const gaveUp = await Promise.race([
      shown.then(() => false),
      giveUpAfterLastDeltaMs === undefined ? new Promise<never>(() => undefined) : lastDeltaPlus(agent, asked, giveUpAfterLastDeltaMs, () => over).then(() => true),
    ]);
    over = true;
    let probe: LongProbe | undefined;
    let events: TraceEvent[] | undefined;
    // What the page had shown and been handed at the give-up, as it last reported (the page goes on after it).
    const atGiveUp = gaveUp ? { ...progress } : undefined;
    if (gaveUp) {
      // The page may be busy for minutes more: what needs its main thread gets a few seconds, and the trace is dropped.
      await within(10_000, clicking);
      probe = await within(15_000, page.evaluate("window.__longProbe") as Promise<LongProbe>);
    } else {
      await clicking;
      events = await trace?.stop();
      if (events && traceFile) writeFileSync(traceFile, JSON.stringify({ traceEvents: events }));
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
      probe = (await page.evaluate("window.__longProbe")) as LongProbe;
    }
    if (!probe) return { longFrames: NaN, maxFrameGapMs: NaN, inputDelays: [], ...atGiveUp!, pageBusy: true };
    const gaps = probe.frameGaps;
    return {
      ...(events && busyShare(events)),
      ...(!gaveUp && { lagMs: probe.wholeTextWallAt! - agent.lastDeltaAt()! }),
      longFrames: gaps.filter((gap) => gap > 50).length / Math.max(1, gaps.length),
      maxFrameGapMs: Math.max(0, ...gaps),
      inputDelays: probe.inputDelays,
      chunks: probe.chunks,
      shownChars: probe.shownChars,
      ...atGiveUp,
    };
  } finally {
    await page.close();
  }
}

/**
 * Types `text` into Carbon's input and presses Enter until the agent has the run (Carbon takes a message only once the
 * answer before it has ended). Told by the agent, not by the page: a page that streams can be too busy to answer.
 */
async function ask(page: Page, agent: AgentServer, text: string): Promise<void> {
  const input = page.getByRole("textbox").first();
  const before = agent.inputs.length;
  await input.fill(text);
  for (let attempt = 0; attempt < 20; attempt++) {
    await input.press("Enter");
    for (const started = Date.now(); Date.now() - started < 500; await new Promise((resolve) => setTimeout(resolve, 20))) {
      if (agent.inputs.length > before) return;
    }
  }
  throw new Error(`the agent did not get "${text}" within 10 s`);
}

/** What `promise` gives within `ms`, else undefined. */
function within<T>(ms: number, promise: Promise<T>): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    promise.then(resolve, () => resolve(undefined)).finally(() => clearTimeout(timer));
  });
}

/** Resolves `afterMs` after the agent's last delta of an answer asked for at `asked` (checked every 250 ms), unless `over` first. */
function lastDeltaPlus(agent: { lastDeltaAt(): number | undefined }, asked: number, afterMs: number, over: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      const last = agent.lastDeltaAt();
      if (over() || (last !== undefined && last >= asked && Date.now() - last >= afterMs)) return resolve();
      setTimeout(check, 250);
    };
    check();
  });
}

/** A click every 250 ms on the state panel (away from Carbon), until `done`. */
async function clickPeriodically(page: Page, done: () => boolean): Promise<void> {
  while (!done()) {
    await page.mouse.click(PAGE_OPTIONS.viewport.width - 40, PAGE_OPTIONS.viewport.height - 40);
    await page.waitForTimeout(250);
  }
}

async function startTrace(cdp: CDPSession) {
  const events: TraceEvent[] = [];
  cdp.on("Tracing.dataCollected", ({ value }) => void events.push(...(value as unknown as TraceEvent[])));
  await cdp.send("Tracing.start", { traceConfig: { includedCategories: ["disabled-by-default-devtools.timeline", "devtools.timeline", "blink.user_timing", "__metadata"] } });
  return {
    async stop(): Promise<TraceEvent[]> {
      const complete = new Promise<void>((resolve) => cdp.once("Tracing.tracingComplete", () => resolve()));
      await cdp.send("Tracing.end");
      await complete;
      return events;
    },
  };
}

/** The page's main thread (the renderer thread with the user-timing marks): the share of time in top-level tasks between the marks, and over the last 5 s. */
function busyShare(events: TraceEvent[]): { busy: number; busyLast5s: number } {
  const first = events.find((event) => event.name === "first-chunk");
  const last = events.find((event) => event.name === "whole-text");
  if (!first || !last) throw new Error("The trace lacks the page's marks");
  const tasks = events.filter((event) => event.ph === "X" && event.name === "RunTask" && event.pid === first.pid && event.tid === first.tid);
  const busyBetween = (from: number, to: number) =>
    tasks.reduce((sum, task) => sum + Math.max(0, Math.min(to, task.ts + (task.dur ?? 0)) - Math.max(from, task.ts)), 0) / Math.max(1, to - from);
  return { busy: busyBetween(first.ts, last.ts), busyLast5s: busyBetween(Math.max(first.ts, last.ts - 5_000_000), last.ts) };
}
