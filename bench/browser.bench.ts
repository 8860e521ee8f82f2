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
 */
import type { Browser, Page } from "playwright-core";
import { LONG_ANSWER } from "../examples/scripted-conversation";
import { startWebDemo } from "../examples/web/serve";
import { launchChromium, openChatPage, PAGE_OPTIONS, type ChatPage } from "../spec/e2e/browser";
import { installProbe, probeSaw, readProbe } from "../spec/e2e/probe";

const RUNS = 5;

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

async function main() {
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

void main();
