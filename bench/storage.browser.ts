/**
 * Where a browser keeps conversations (`npx tsx bench/storage.browser.ts`):
 * a 200-turn snapshot (bench/longConversation.ts) saved and loaded in
 * Debian's Chromium, through `localStorage` (stringify + setItem, getItem +
 * parse: all on the main thread) and IndexedDB through idb-keyval, storing
 * the snapshot as an object (structured clone) or as JSON text. For each:
 * the median of `--runs` (default 7) of the whole save and load, and of the
 * save call itself (until it returns: all of localStorage's work; IndexedDB
 * copies the object in a later task). Then how many such snapshots fit in
 * `localStorage` before its quota refuses one.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { launchChromium } from "../spec/e2e/browser";
import { longConversation } from "./longConversation";

const runs = Number(process.argv.find((arg) => arg.startsWith("--runs="))?.slice(7) ?? 7);
const idbKeyval = readFileSync(require.resolve("idb-keyval/dist/index.js"), "utf8");
const snapshot = longConversation(200);
const server = createServer((request, response) => {
  if (request.url === "/idb-keyval.js") return response.writeHead(200, { "content-type": "text/javascript" }).end(idbKeyval);
  response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>storage bench</title>");
});

/** Runs in the page. */
const PAGE_MEASURE = `async ({ snapshot, runs }) => {
  const { createStore, get, set } = await import("/idb-keyval.js");
  const store = createStore("bench", "conversations");
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const measure = async (save, load) => {
    const calls = [], saves = [], loads = [];
    for (let run = 0; run < runs; run++) {
      const begin = performance.now();
      const pending = save();
      calls.push(performance.now() - begin);
      await pending;
      saves.push(performance.now() - begin);
      const loadBegin = performance.now();
      const loaded = await load();
      loads.push(performance.now() - loadBegin);
      if (loaded.transcript.length !== snapshot.transcript.length) throw new Error("lost entries");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const round = (value) => Math.round(value * 10) / 10;
    return { saveMs: round(median(saves)), callMs: round(median(calls)), loadMs: round(median(loads)) };
  };
  return {
    chars: JSON.stringify(snapshot).length,
    localStorage: await measure(() => localStorage.setItem("bench", JSON.stringify(snapshot)), () => JSON.parse(localStorage.getItem("bench"))),
    indexedDbObject: await measure(() => set("object", snapshot, store), () => get("object", store)),
    indexedDbJson: await measure(() => set("json", JSON.stringify(snapshot), store), async () => JSON.parse(await get("json", store))),
    localStorageThreadsThatFit: (() => {
      localStorage.clear();
      const json = JSON.stringify(snapshot);
      let kept = 0;
      try {
        for (; kept < 100; kept++) localStorage.setItem("thread-" + kept, json);
      } catch {}
      localStorage.clear();
      return kept;
    })(),
  };
}`;

async function main() {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    // A string, not a function: tsx's transform would add helpers the page does not have.
    const figures = await page.evaluate(`(${PAGE_MEASURE})(${JSON.stringify({ snapshot, runs })})`);
    console.log(JSON.stringify(figures, null, 2));
  } finally {
    await browser.close();
    server.close();
  }
}

void main();
