/**
 * The browser bench (`npm run bench:browser`, which builds the demo first):
 * the demo page in Debian's Chromium, a ~12,000-character answer asked for
 * through Carbon's own input (typed, then Enter), sent by the demo agent as
 * 3,000 deltas in one burst and as one delta, with coalescing on and off
 * (`?coalesce=off`). The probe in the page (spec/e2e/probe.ts) times Enter to
 * the whole text in Carbon's markdown view, and reports the longest task, the
 * longest gap between animation frames and the `addMessageChunk` calls. Then
 * the stop button, clicked as soon as the first text shows during a
 * 3,000-delta burst: how much text the page showed when it handled the click,
 * and how long until "Response stopped".
 *
 * Then the long answer (bench/longAnswer.ts): a markdown answer streamed at
 * 1,000 characters a second for `--seconds` (default 30: ~30,000 characters,
 * ~7,500 deltas), with default options, a merge window capped at 100 ms (as
 * before it adapted) or at 300 ms (before the default cap became 1 s), and
 * `coalesce: false`, at full speed and with the CPU
 * throttled 4×, `--runs` times (default 3) interleaved.
 *
 * Then the seed's adapter (`@hsb3/carbon-agui-adapter` 0.2.0, bench/seedBrowser.ts) in the same demo page in
 * place of ours, against ours, on the same long answer (`?persist=off`: the seed keeps no store), at full speed and
 * throttled 4×, without a trace: from the agent's last delta until the whole text shows, given up `--give-up`
 * seconds (default 60) after the last delta.
 *
 * Then restoring (bench/restore.ts): a 200-turn conversation written into the demo's IndexedDB store, the page
 * opened on its thread, until its last message (a pending card) shows, against the page on an empty thread.
 * The long answer runs with the demo's store attached, as the demo does, and without (`persist=off`).
 *
 * Then the thread from the agent's server (bench/serverRestore.ts): the LangGraph demo (the LangGraph API server,
 * serveAgent's thread routes, the page's httpThreads), a 200-turn thread written into the server's state (598 LangChain
 * messages, a pending interrupt last), opened in a fresh context: from the page receiving the thread until its last
 * message and card show, against an empty thread and the IndexedDB restore above; and a "story" run rejoined mid-run:
 * from the server sending the first text after the replay until it shows.
 *
 * Then what an A2UI surface, and an MCP App, cost the chat against a decision card (bench/surfaceCost.ts): main-thread task time
 * over the same window from Enter, for the first item of its kind in a page and for a later one (`--item-runs=8`,
 * `--items=approvalSurface,card` some of them).
 *
 * `--only=burst`, `--only=long`, `--only=seed`, `--only=restore`, `--only=server` or `--only=surface` runs one part; `--seconds=5` a short answer;
 * `--configs=1,2` some long-answer configurations (by index); `--traces=dir`
 * saves each long-answer run's Chrome trace there.
 */
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { langGraphClient } from "../examples/frameworks/langgraph";
import { LONG_ANSWER } from "../examples/scripted-conversation";
import { startWebDemo } from "../examples/web/serve";
import { launchChromium, openChatPage, PAGE_OPTIONS, type ChatPage } from "../spec/e2e/browser";
import { installProbe, probeSaw, readProbe } from "../spec/e2e/probe";
import { CHARS_PER_SECOND, markdownAnswer, measureLongAnswer, startPacedAgent, type LongAnswerRun } from "./longAnswer";
import { measureRestore } from "./restore";
import { ITEM_TURNS, measureItemCosts, type ItemCostRun, type ItemTurnName } from "./surfaceCost";
import { measureRejoin, measureServerOpen, seedLangGraphThread, startServerDemo, type RejoinRun, type ServerOpenRun } from "./serverRestore";
import { SEED_ADAPTER } from "./seedAdapter";
import { bundleSeedAdapter, useSeedAdapter } from "./seedBrowser";

const RUNS = 5;

/** `--name=value` from the command line, else `BENCH_NAME` from the environment. */
const option = (name: string, fallback: string) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? process.env[`BENCH_${name.toUpperCase()}`] ?? fallback;
const ONLY = option("only", "all");
const LONG_SECONDS = Number(option("seconds", "30"));
const LONG_RUNS = Number(option("runs", "3"));
/** Runs of each item turn (`--only=surface`). */
const ITEM_RUNS = Number(option("item-runs", "8"));
/** Which item turns to run (`--items=approvalSurface,card`), by their names in bench/surfaceCost.ts; all unless told. */
const ITEM_NAMES = option("items", "");
/** A directory to save each long-answer run's Chrome trace in. */
const TRACES = option("traces", "");
/** Which long-answer configurations to run: indexes into LONG_CONFIGS, comma-separated. */
const CONFIGS = option("configs", "");
/** Seconds after the agent's last delta that the seed comparison waits for the whole text. */
const GIVE_UP_SECONDS = Number(option("give-up", "60"));

/** Lets what is still running finish (the rest of an answer, the final response), so counts and long tasks are complete. */
const settle = (page: Page) => page.waitForTimeout(1_000);

/** A fresh page that has shown a first answer (so Carbon's lazy parts are loaded), with the probe installed. */
async function warmPage(browser: Browser, baseUrl: string, coalesce: boolean): Promise<ChatPage> {
  const chat = await openChatPage(await browser.newPage(PAGE_OPTIONS), `${baseUrl}?coalesce=${coalesce ? "on" : "off"}`);
  await chat.send("Hi there");
  await chat.page.locator('[data-testid^="message-by-index"]').getByText("through carbon-agui-rx").waitFor();
  await settle(chat.page);
  await installProbe(chat.page);
  return chat;
}

async function timeAnswer(browser: Browser, baseUrl: string, coalesce: boolean, deltas: number) {
  const chat = await warmPage(browser, baseUrl, coalesce);
  await chat.send(`long answer in ${deltas} deltas`);
  await probeSaw(chat.page, "wholeTextAt");
  await settle(chat.page);
  const probe = await readProbe(chat.page);
  await chat.page.close();
  return { shownMs: probe.wholeTextAt! - probe.enterAt!, chunks: probe.chunks, longestTask: probe.longestTask, longestFrameGap: probe.longestFrameGap };
}

async function timeStop(browser: Browser, baseUrl: string, coalesce: boolean) {
  const chat = await warmPage(browser, baseUrl, coalesce);
  await chat.send("long answer in 3000 deltas and wait");
  await probeSaw(chat.page, "firstTextAt");
  const clicked = Date.now();
  await chat.page.getByRole("button", { name: /stop/i }).click();
  await probeSaw(chat.page, "stoppedAt");
  const clickToStoppedMs = Date.now() - clicked;
  await settle(chat.page);
  const probe = await readProbe(chat.page);
  await chat.page.close();
  return {
    clickToStoppedMs,
    inPageMs: probe.stoppedAt! - probe.clickAt!,
    shownAtClick: probe.textAtClick!,
    chunks: probe.chunks,
    longestTask: probe.longestTask,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => (value === 0 ? "none > 50" : `${Math.round(value)}`);
const spread = (values: number[], format = (value: number) => `${Math.round(value)}`) => `${format(median(values))} (${values.map(format).join(", ")})`;

async function burst() {
  const demo = await startWebDemo();
  const browser = await launchChromium();
  try {
    console.log(`Answer: ${LONG_ANSWER.length} characters. ${RUNS} runs each; median (each run). Times in ms.\n`);
    console.log("| coalescing | answer as | Enter → whole text visible | longest task (longtask) | longest frame gap | addMessageChunk calls |");
    console.log("|---|---|---|---|---|---|");
    for (const coalesce of [true, false]) {
      for (const deltas of [3000, 1]) {
        const runs = [];
        for (let run = 0; run < RUNS; run++) runs.push(await timeAnswer(browser, demo.url, coalesce, deltas));
        const cells = [
          spread(runs.map((run) => run.shownMs)),
          spread(runs.map((run) => run.longestTask), ms),
          spread(runs.map((run) => run.longestFrameGap)),
          spread(runs.map((run) => run.chunks)),
        ];
        console.log(`| ${coalesce ? "on" : "off"} | ${deltas === 1 ? "1 delta" : `${deltas} deltas`} | ${cells.join(" | ")} |`);
      }
    }
    console.log("\nStop clicked once the first text shows, during a 3,000-delta burst (the run stays open):\n");
    console.log("| coalescing | text shown at the click | click → \"Response stopped\" (in page) | (from the test driver) | longest task | addMessageChunk calls |");
    console.log("|---|---|---|---|---|---|");
    for (const coalesce of [true, false]) {
      const runs = [];
      for (let run = 0; run < RUNS; run++) runs.push(await timeStop(browser, demo.url, coalesce));
      const cells = [
        spread(runs.map((run) => run.shownAtClick)),
        spread(runs.map((run) => run.inPageMs)),
        spread(runs.map((run) => run.clickToStoppedMs)),
        spread(runs.map((run) => run.longestTask), ms),
        spread(runs.map((run) => run.chunks)),
      ];
      console.log(`| ${coalesce ? "on" : "off"} | ${cells.join(" | ")} |`);
    }
  } finally {
    await browser.close();
    await demo.close();
  }
}

const LONG_CONFIGS = [
  { name: "default", query: "coalesce=on", throttle: 1 },
  { name: "default", query: "coalesce=on", throttle: 4 },
  { name: "window capped at 100 ms (as before)", query: "maxWindow=100", throttle: 1 },
  { name: "window capped at 100 ms (as before)", query: "maxWindow=100", throttle: 4 },
  { name: "window capped at 300 ms (as before)", query: "maxWindow=300", throttle: 4 },
  { name: "`coalesce: false`", query: "coalesce=off", throttle: 1 },
  { name: "`coalesce: false`", query: "coalesce=off", throttle: 4 },
  { name: "default, no store", query: "coalesce=on&persist=off", throttle: 1 },
  { name: "default, no store", query: "coalesce=on&persist=off", throttle: 4 },
];

async function longAnswer() {
  const text = markdownAnswer(LONG_SECONDS * CHARS_PER_SECOND);
  const agent = await startPacedAgent(text);
  const demo = await startWebDemo(agent.url);
  const browser = await launchChromium();
  const runs = LONG_CONFIGS.map((): LongAnswerRun[] => []);
  try {
    console.log(`\nLong answer: ${text.length} characters of markdown at ${CHARS_PER_SECOND} characters/s (~${Math.ceil(text.length / 4)} deltas of 4); ${LONG_RUNS} runs of each, interleaved; median (each run).\n`);
    for (let run = 0; run < LONG_RUNS; run++) {
      for (const [index, config] of LONG_CONFIGS.entries()) {
        if (CONFIGS && !CONFIGS.split(",").includes(`${index}`)) continue;
        const traceFile = TRACES && join(TRACES, `${config.query}-${config.throttle}x-run${run + 1}.json`);
        runs[index]!.push(await measureLongAnswer(browser, demo.url, agent, config.query, config.throttle, LONG_SECONDS * 1000 * 10 + 60_000, { ...(traceFile && { traceFile }) }));
      }
    }
    const percent = (value: number) => `${Math.round(value * 100)} %`;
    const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))] ?? 0;
    console.log("| options | CPU | main thread busy: stream / last 5 s | last delta → whole text visible (ms) | frames over 50 ms | longest frame gap (ms) | input delay p95 / max (ms) | addMessageChunk calls |");
    console.log("|---|---|---|---|---|---|---|---|");
    for (const [index, config] of LONG_CONFIGS.entries()) {
      const measured = runs[index]!;
      if (measured.length === 0) continue;
      const cells = [
        `${spread(measured.map((one) => one.busy!), percent)} / ${spread(measured.map((one) => one.busyLast5s!), percent)}`,
        spread(measured.map((one) => one.lagMs!)),
        spread(measured.map((one) => one.longFrames), (value) => `${(value * 100).toFixed(1)} %`),
        spread(measured.map((one) => one.maxFrameGapMs)),
        `${spread(measured.map((one) => p95(one.inputDelays)))} / ${Math.round(Math.max(...measured.flatMap((one) => one.inputDelays)))}`,
        spread(measured.map((one) => one.chunks)),
      ];
      console.log(`| ${config.name} | ${config.throttle}× | ${cells.join(" | ")} |`);
    }
  } finally {
    await browser.close();
    await demo.close();
    await agent.close();
  }
}

const SEED_CONFIGS = [
  { adapter: "ours", throttle: 1 },
  { adapter: "seed", throttle: 1 },
  { adapter: "ours", throttle: 4 },
  { adapter: "seed", throttle: 4 },
] as const;

async function seedComparison() {
  const script = await bundleSeedAdapter();
  const text = markdownAnswer(LONG_SECONDS * CHARS_PER_SECOND);
  const agent = await startPacedAgent(text);
  const demo = await startWebDemo(agent.url);
  const browser = await launchChromium();
  const runs = SEED_CONFIGS.map((): LongAnswerRun[] => []);
  const giveUpMs = GIVE_UP_SECONDS * 1000;
  try {
    console.log(
      `\nThe seed's adapter (${SEED_ADAPTER} 0.2.0) in the demo page in place of ours (both with ?coalesce=on&persist=off), on the long answer: ${text.length} characters at ${CHARS_PER_SECOND} characters/s (~${Math.ceil(text.length / 4)} deltas); ` +
        `given up ${GIVE_UP_SECONDS} s after the agent's last delta; no trace; ${LONG_RUNS} runs of each, interleaved; median (each run).\n`,
    );
    for (let run = 0; run < LONG_RUNS; run++) {
      for (const [index, config] of SEED_CONFIGS.entries()) {
        const setUp = config.adapter === "seed" ? { setUp: (page: Page) => useSeedAdapter(page, script) } : {};
        runs[index]!.push(await measureLongAnswer(browser, demo.url, agent, "coalesce=on&persist=off", config.throttle, LONG_SECONDS * 2_000 + giveUpMs + 60_000, { trace: false, giveUpAfterLastDeltaMs: giveUpMs, ...setUp }));
      }
    }
    const lag = (one: LongAnswerRun, short = false) => (one.lagMs !== undefined ? `${Math.round(one.lagMs)}` : short ? `> ${GIVE_UP_SECONDS} s` : `not shown after ${GIVE_UP_SECONDS} s`);
    const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))] ?? 0;
    // The whole answer as Carbon shows it (its markdown rendered), from a run that showed it all.
    const whole = Math.max(0, ...runs.flat().filter((one) => one.lagMs !== undefined).map((one) => one.shownChars));
    const shownShare = (one: LongAnswerRun) => (one.lagMs !== undefined ? 1 : whole > 0 ? one.shownChars / whole : NaN);
    // Frame and input figures of the runs whose page could still hand them over.
    const answered = (measured: LongAnswerRun[], cell: (known: LongAnswerRun[]) => string) => {
      const known = measured.filter((one) => !one.pageBusy);
      const busy = measured.length - known.length;
      return known.length === 0 ? "unknown: page still busy" : `${cell(known)}${busy > 0 ? `; ${busy} run(s) unknown: page still busy` : ""}`;
    };
    console.log("| adapter | CPU | last delta → whole text visible (ms) | text shown by then | addMessageChunk calls by then | frames over 50 ms | longest frame gap (ms) | input delay p95 / max (ms) |");
    console.log("|---|---|---|---|---|---|---|---|");
    for (const [index, config] of SEED_CONFIGS.entries()) {
      const measured = runs[index]!;
      const byLag = [...measured].sort((a, b) => (a.lagMs ?? Infinity) - (b.lagMs ?? Infinity));
      const cells = [
        `${lag(byLag[Math.floor(byLag.length / 2)]!)} (${measured.map((one) => lag(one, true)).join(", ")})`,
        spread(measured.map(shownShare), (value) => (value === 1 ? "all" : `${Math.round(value * 100)} %`)),
        spread(measured.map((one) => one.chunks)),
        answered(measured, (known) => spread(known.map((one) => one.longFrames), (value) => `${(value * 100).toFixed(1)} %`)),
        answered(measured, (known) => spread(known.map((one) => one.maxFrameGapMs))),
        answered(measured, (known) =>
          known.some((one) => one.inputDelays.length > 0)
            ? `${spread(known.map((one) => p95(one.inputDelays)))} / ${Math.round(Math.max(...known.flatMap((one) => one.inputDelays)))}`
            : "no click handled",
        ),
      ];
      console.log(`| ${config.adapter === "seed" ? `${SEED_ADAPTER} 0.2.0` : "carbon-agui-rx, default options"} | ${config.throttle}× | ${cells.join(" | ")} |`);
    }
    console.log(`\n"by then": by the whole text, or by the give-up ${GIVE_UP_SECONDS} s after the last delta; the whole answer is ${whole.toLocaleString("en")} characters as Carbon shows it.`);
  } finally {
    await browser.close();
    await demo.close();
    await agent.close();
  }
}

async function restore() {
  const demo = await startWebDemo();
  const browser = await launchChromium();
  try {
    const measured = [];
    for (let run = 0; run < RUNS; run++) measured.push(await measureRestore(browser, demo.url, 200));
    console.log(`\nRestoring a 200-turn conversation from IndexedDB into Carbon; ${RUNS} runs; median (each run). Times in ms from the navigation (the test driver's clock).\n`);
    console.log("| page | until shown |");
    console.log("|---|---|");
    console.log(`| empty thread: Carbon's home screen | ${spread(measured.map((one) => one.emptyMs))} |`);
    console.log(`| 200 turns: the last message (a pending card) | ${spread(measured.map((one) => one.restoredMs))} |`);
    console.log(`| difference: restoring | ${spread(measured.map((one) => one.restoredMs - one.emptyMs))} |`);
  } finally {
    await browser.close();
    await demo.close();
  }
}

/** The LangGraph demo's threads, from the agent's server: a 200-turn thread opened, an empty one, a running run rejoined. */
async function serverThreads() {
  const demo = await startServerDemo();
  // The IndexedDB restore of bench/restore.ts, in the same run: the scripted demo, its store.
  const local = await startWebDemo();
  const browser = await launchChromium();
  try {
    const client = langGraphClient(demo.langGraphUrl);
    const seeded = await seedLangGraphThread(client, 200);
    const { thread_id: empty } = await client.threads.create({ graphId: "assistant" });
    const long: ServerOpenRun[] = [];
    const blank: ServerOpenRun[] = [];
    const rejoined: RejoinRun[] = [];
    const unmerged: RejoinRun[] = [];
    const stored = [];
    for (let run = 0; run < RUNS; run++) {
      stored.push(await measureRestore(browser, local.url, 200));
      long.push(await measureServerOpen(browser, demo, seeded.threadId, { lastText: seeded.lastAnswer, card: "Delete the files matching *.tmp?" }));
      blank.push(await measureServerOpen(browser, demo, empty, "home"));
      rejoined.push(await measureRejoin(browser, demo));
      unmerged.push(await measureRejoin(browser, demo, "&coalesce=off"));
    }
    console.log(
      `\nA thread from the LangGraph server (the LangGraph demo, a fresh context each time): 200 turns as ${seeded.messages} LangChain messages, ` +
        `${Math.round(long[0]!.bytes / 1024)} KiB as the demo's thread route sends it, ending on a pending interrupt; ${RUNS} runs; median (each run). Page clock, ms.\n`,
    );
    console.log("| thread | navigation → answer received | answer's first → last byte | answer → `loadHistory` resolved | answer → in Carbon's DOM | answer → shown (scrolled to) | navigation → shown |");
    console.log("|---|---|---|---|---|---|---|");
    for (const [name, measured] of [["200 turns: the last answer and its card", long], ["empty: Carbon's home screen", blank]] as const) {
      const cells = [
        spread(measured.map((one) => one.navigationToAnswerMs)),
        spread(measured.map((one) => one.transferMs)),
        spread(measured.map((one) => one.answerToHistoryMs)),
        spread(measured.map((one) => one.answerToInDomMs)),
        spread(measured.map((one) => one.answerToShownMs)),
        spread(measured.map((one) => one.navigationToShownMs)),
      ];
      console.log(`| ${name} | ${cells.join(" | ")} |`);
    }
    console.log(
      `\nThe IndexedDB restore of \`--only=restore\` in the same run (the test driver's clock, from \`goto\`): 200 turns ${spread(stored.map((one) => one.restoredMs))}, ` +
        `an empty thread ${spread(stored.map((one) => one.emptyMs))}, the difference ${spread(stored.map((one) => one.restoredMs - one.emptyMs))}; ` +
        `from the server, navigation → shown minus the empty thread's: ${spread(long.map((one, index) => one.navigationToShownMs - blank[index]!.navigationToShownMs))}.`,
    );
    console.log(`\nTarget: answer → the 200-turn thread's last message shown ≤ 500 ms: ${median(long.map((one) => one.answerToShownMs)) <= 500 ? "met" : "not met"}.`);
    console.log(`\nA "story" run rejoined mid-run (the page's request for the thread let through 600 ms after the run started); ${RUNS} runs; median (each run). ms from the demo's server sending the text.\n`);
    console.log("| page | deltas replayed / live | first new text: sent → handed to Carbon | sent → shown | later deltas: sent → shown (each run's median) |");
    console.log("|---|---|---|---|---|");
    for (const [name, measured] of [["default options", rejoined], ["`?coalesce=off`", unmerged]] as const) {
      const cells = [
        `${spread(measured.map((one) => one.replayed))} / ${spread(measured.map((one) => one.live))}`,
        spread(measured.map((one) => one.firstNewChunkMs)),
        spread(measured.map((one) => one.firstNewTextMs)),
        spread(measured.map((one) => one.laterMedianMs)),
      ];
      console.log(`| ${name} | ${cells.join(" | ")} |`);
    }
    console.log(`\nTarget: a rejoined run's first new text shown ≤ 300 ms after the server sent it (default options): ${median(rejoined.map((one) => one.firstNewTextMs)) <= 300 ? "met" : "not met"}.`);
  } finally {
    await browser.close();
    await local.close();
    await demo.close();
  }
}

async function itemCosts() {
  const browser = await launchChromium();
  try {
    const names = ITEM_NAMES === "" ? undefined : (ITEM_NAMES.split(",") as ItemTurnName[]);
    const unknown = names?.filter((name) => !Object.hasOwn(ITEM_TURNS, name)) ?? [];
    if (unknown.length > 0) throw new Error(`--items: no item turn ${unknown.join(", ")} (there are ${Object.keys(ITEM_TURNS).join(", ")})`);
    const costs = await measureItemCosts(browser, ITEM_RUNS, names);
    console.log(`\nAn A2UI surface against a decision card: the main thread from Enter for 3 s (the same window for every turn); ${ITEM_RUNS} runs each, interleaved; median (each run).\n`);
    console.log("| turn | main-thread task time (ms) | of it script (ms) | main-thread CPU time (ms) | other renderers' CPU time (ms) | longest task (ms) | addMessageChunk calls |");
    console.log("|---|---|---|---|---|---|---|");
    const turns: [string, ItemCostRun[] | undefined][] = [
      ["first of its kind in the page: the booking form (building, painted, data)", costs.form],
      ["first of its kind: a surface showing what the card shows (question, arguments, 3 buttons)", costs.approvalSurface],
      ["first of its kind: a decision card", costs.card],
      ["first of its kind: the form from the real middleware (text, streamed arguments, progress)", costs.middlewareForm],
      ["after one answered: the surface showing what the card shows", costs.laterApprovalSurface],
      ["after one answered: a decision card", costs.laterCard],
      ["after an approval surface answered: the booking form", costs.laterForm],
      ["first of its kind: an MCP App of about the form's height (basic-vanillajs, sandboxed)", costs.mcpApp],
      ["the booking form's turn, undrawn (`?surfaces=off`)", costs.formUndrawn],
      ["the MCP App's turn, undrawn", costs.mcpAppUndrawn],
      ["after one shown: an MCP App", costs.laterMcpApp],
      ["after one shown: the MCP App's turn, undrawn", costs.laterMcpAppUndrawn],
    ];
    for (const [name, measured] of turns) {
      if (!measured) continue;
      console.log(`| ${name} | ${spread(measured.map((one) => one.busyMs))} | ${spread(measured.map((one) => one.scriptMs))} | ${spread(measured.map((one) => one.cpuMs))} | ${spread(measured.map((one) => one.othersCpuMs))} | ${spread(measured.map((one) => one.longestTask), ms)} | ${spread(measured.map((one) => one.chunks))} |`);
    }
    // What the item itself costs: the median turn drawn less the median turn undrawn.
    const items: [string, ItemCostRun[] | undefined, ItemCostRun[] | undefined][] = [
      ["the booking form", costs.form, costs.formUndrawn],
      ["the MCP App", costs.mcpApp, costs.mcpAppUndrawn],
      // The later form came after an approval surface, which a page that draws none cannot answer: its turn undrawn is the first's.
      ["the booking form after an approval surface", costs.laterForm, costs.formUndrawn],
      ["the MCP App after one shown", costs.laterMcpApp, costs.laterMcpAppUndrawn],
    ];
    for (const [name, drawn, undrawn] of items) {
      if (!drawn || !undrawn) continue;
      const less = (read: (run: ItemCostRun) => number) => Math.round(median(drawn.map(read)) - median(undrawn.map(read)));
      console.log(`\n${name} itself (median drawn less median undrawn): task time ${less((run) => run.busyMs)} ms, script ${less((run) => run.scriptMs)} ms, CPU time ${less((run) => run.cpuMs)} ms`);
    }
  } finally {
    await browser.close();
  }
}

async function main() {
  if (ONLY === "all" || ONLY === "burst") await burst();
  if (ONLY === "all" || ONLY === "long") await longAnswer();
  if (ONLY === "all" || ONLY === "seed") await seedComparison();
  if (ONLY === "all" || ONLY === "restore") await restore();
  if (ONLY === "all" || ONLY === "server") await serverThreads();
  if (ONLY === "all" || ONLY === "surface") await itemCosts();
}

void main();
