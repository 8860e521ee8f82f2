import { expect as expectPage } from "@jest/globals";
import type { Page } from "playwright-core";
import { carbon, CarbonRecorder } from "carbon-agui-rx/testing";
import type { CarbonItem, CarbonMessageOptions, CarbonStreamChunk } from "carbon-agui-rx";
import { useBrowserDemo } from "./browser";

/*
 * The testing kit's CarbonRecorder is the model of Carbon the other specs
 * judge by. Here the same chunk sequences go to real Carbon 1.9.1 in Chromium
 * (straight into `addMessageChunk`, no agent) and to a CarbonRecorder, and
 * after each group of chunks what Carbon shows is read off the page in the
 * form of `recorder.transcript()`: each item's text, "(Response stopped)"
 * under an item Carbon marks stopped, and the chain of thought, each step as
 * its name (status).
 */

const demo = useBrowserDemo();
const R = "recorder-check";
const meta = { response_id: R };

const partial = (id: string, text: string, options?: CarbonMessageOptions): CarbonStreamChunk => ({
  partial_item: { response_type: "text", text, streaming_metadata: { id, cancellable: true } },
  ...(options && { partial_response: { message_options: options } }),
  streaming_metadata: meta,
});
const complete = (id: string, text: string, stopped = false): CarbonStreamChunk => carbon.completeText(R, id, text, stopped);
const final = (items: CarbonItem[], messageOptions?: CarbonMessageOptions): CarbonStreamChunk =>
  carbon.final(R, items, messageOptions === undefined ? {} : { messageOptions });
const item = carbon.textItem;

/** Opens the demo page with its home screen off, so a response fed straight to Carbon shows. */
async function openChat(): Promise<Page> {
  const { page } = await demo.open("?persist=off");
  await page.evaluate(() => {
    const chat = document.querySelector("cds-aichat-custom-element") as HTMLElement & { homescreen: object };
    chat.homescreen = { ...chat.homescreen, isOn: false };
  });
  return page;
}

/**
 * What Carbon shows of the chat, in `CarbonRecorder.transcript()`'s form:
 * read from its messages (inside nested shadow roots), leaving out the
 * markdown of the chain-of-thought panel's own fields.
 */
const readCarbon = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const root = document.querySelector("cds-aichat-custom-element")!.shadowRoot!.querySelector("cds-aichat-container")!.shadowRoot!.querySelector("cds-aichat-internal")!.shadowRoot!;
    const children = (node: Element): Element[] => [...(node.shadowRoot ? Array.from(node.shadowRoot.children) : []), ...Array.from(node.children)];
    const all = (node: Element, keep: (element: Element) => boolean, skip: (element: Element) => boolean = () => false): Element[] =>
      children(node).flatMap((child) => (skip(child) ? [] : [...(keep(child) ? [child] : []), ...all(child, keep, skip)]));
    const textOf = (node: Node): string =>
      node.nodeType === Node.TEXT_NODE ? (node.textContent ?? "") : node.nodeName === "STYLE" ? "" : [...((node as Element).shadowRoot?.childNodes ?? []), ...Array.from(node.childNodes)].map(textOf).join("");
    const isChainOfThought = (element: Element) => element.classList.contains("cds-aichat--received--chain-of-thought");
    const lines: string[] = [];
    const steps: string[] = [];
    const STATUS: Record<string, string> = { Processing: "processing", Succeeded: "success", Failed: "failure" };
    for (const message of Array.from(root.querySelectorAll('[data-testid^="message-by-index"]'))) {
      const text = all(message, (element) => element.localName === "cds-aichat-markdown", isChainOfThought)
        .map((markdown) => textOf(markdown).trim())
        .join("");
      const stopped = all(message, (element) => element.classList.contains("cds-aichat--response-stopped")).length > 0;
      if (text !== "") lines.push(`${text}${stopped ? "\n  (Response stopped)" : ""}`);
      for (const step of all(message, (element) => element.localName === "cds-aichat-chain-of-thought-step")) {
        const title = all(step, (element) => element.classList.contains("cds-aichat--chain-of-thought-accordion-item-header-title")).map((element) => textOf(element).trim())[0] ?? "";
        const status = all(step, (element) => element.classList.contains("cds-aichat--chain-of-thought-accordion-item-header-status"))
          .flatMap((element) => all(element, (icon) => icon.hasAttribute("aria-label")))
          .map((icon) => STATUS[icon.getAttribute("aria-label")!] ?? icon.getAttribute("aria-label"))[0];
        steps.push(`${title.replace(/^\d+: /, "")} (${status ?? "?"})`);
      }
    }
    if (steps.length > 0) lines.push(`  How did I get this answer? ${steps.join(", ")}`);
    return `Assistant: ${lines.join("\n") || "(no answer)"}`;
  });

/** The recorder's transcript, without its "(still streaming)" line: Carbon shows no such line. */
const readRecorder = (recorder: CarbonRecorder): string => recorder.transcript().replace(/\n {2}\(still streaming\)$/, "");

/** Until Carbon shows `expected` (it renders markdown on its own schedule), then once more `laterMs` after: what it shows then. */
async function settled(page: Page, expected: string, laterMs = 250): Promise<string> {
  const deadline = Date.now() + 5_000;
  let shown = await readCarbon(page);
  while (shown !== expected && Date.now() < deadline) {
    await page.waitForTimeout(50);
    shown = await readCarbon(page);
  }
  await page.waitForTimeout(laterMs);
  return readCarbon(page);
}

/** Feeds `chunks` to Carbon (one after another, as the adapter does) and to the recorder. */
async function feed(page: Page, recorder: CarbonRecorder, chunks: CarbonStreamChunk[]): Promise<void> {
  await page.evaluate(async (sent) => {
    const { messaging } = window.chatInstance as unknown as { messaging: { addMessageChunk(chunk: unknown): Promise<void> } };
    for (const chunk of sent) await messaging.addMessageChunk(chunk);
  }, chunks);
  for (const chunk of chunks) await recorder.messaging.addMessageChunk(chunk);
}

/** Feeds each group of chunks to both, and expects Carbon to show what the recorder shows after each, and what `expected` says (when given). */
async function expectSameAfterEach(groups: { chunks: CarbonStreamChunk[]; expected?: string }[]): Promise<void> {
  const page = await openChat();
  const recorder = new CarbonRecorder();
  for (const [at, { chunks, expected }] of groups.entries()) {
    await feed(page, recorder, chunks);
    const modelled = readRecorder(recorder);
    if (expected !== undefined) expectPage(modelled).toBe(expected);
    expectPage({ after: at, shown: await settled(page, modelled) }).toEqual({ after: at, shown: modelled });
  }
}

describe("CarbonRecorder against Carbon 1.9.1 in Chromium: the same chunks show the same", () => {
  it("joins text deltas into their item, item by item", async () => {
    await expectSameAfterEach([
      { chunks: [partial("a", "Hel")], expected: "Assistant: Hel" },
      { chunks: [partial("a", "lo"), partial("a", ", world")], expected: "Assistant: Hello, world" },
      { chunks: [partial("b", "Second"), partial("a", "!"), partial("b", " item")], expected: "Assistant: Hello, world!\nSecond item" },
      { chunks: [final([item("a", "Hello, world!"), item("b", "Second item")])], expected: "Assistant: Hello, world!\nSecond item" },
    ]);
  });

  it("lets a complete item replace what streamed under its id, and marks a stopped one \"Response stopped\"", async () => {
    await expectSameAfterEach([
      { chunks: [partial("a", "A first dra"), partial("a", "ft"), partial("b", "Still going")], expected: "Assistant: A first draft\nStill going" },
      { chunks: [complete("a", "The answer.")], expected: "Assistant: The answer.\nStill going" },
      { chunks: [complete("b", "Cut sh", true)], expected: "Assistant: The answer.\nCut sh\n  (Response stopped)" },
      { chunks: [final([item("a", "The answer."), item("b", "Cut sh", true)])], expected: "Assistant: The answer.\nCut sh\n  (Response stopped)" },
    ]);
  });

  it("merges the chain of thought sent as a whole set each time, as carbon-agui-rx sends it", async () => {
    const search = { tool_name: "search", status: "processing" as const };
    await expectSameAfterEach([
      { chunks: [partial("a", "", { chain_of_thought: [search] })], expected: "Assistant:   How did I get this answer? search (processing)" },
      { chunks: [partial("a", "Looking"), partial("a", "", { chain_of_thought: [{ ...search, status: "success" }, { tool_name: "fetch", status: "processing" }] })], expected: "Assistant: Looking\n  How did I get this answer? search (success), fetch (processing)" },
      { chunks: [partial("b", "Found it"), partial("b", "", { chain_of_thought: [{ ...search, status: "success" }, { tool_name: "fetch", status: "failure" }] })], expected: "Assistant: Looking\nFound it\n  How did I get this answer? search (success), fetch (failure)" },
      {
        chunks: [final([item("a", "Looking"), item("b", "Found it")], { chain_of_thought: [{ ...search, status: "success" }, { tool_name: "fetch", status: "failure" }] })],
        expected: "Assistant: Looking\nFound it\n  How did I get this answer? search (success), fetch (failure)",
      },
    ]);
  });

  it("lets the final response replace everything: items that streamed and are not in it go", async () => {
    await expectSameAfterEach([
      { chunks: [partial("a", "draft"), partial("b", "a second thought"), partial("b", "", { chain_of_thought: [{ tool_name: "search", status: "processing" }] })] },
      { chunks: [final([item("a", "The whole answer", true)], { chain_of_thought: [{ tool_name: "search", status: "success" }] })], expected: "Assistant: The whole answer\n  (Response stopped)\n  How did I get this answer? search (success)" },
    ]);
  });

  // Each pins both readings, so a change to either Carbon or the recorder shows here.
  describe("where the recorder is a simpler model than Carbon", () => {
    // carbon-agui-rx sends this for a reopened message (toStreamChunks); its final response carries the whole text.
    it("a complete item that streams again: Carbon shows the complete text until the final response, the recorder the text going on", async () => {
      const page = await openChat();
      const recorder = new CarbonRecorder();
      await feed(page, recorder, [partial("a", "Hel"), partial("a", "lo"), complete("a", "Hello.")]);
      expectPage(await settled(page, readRecorder(recorder))).toBe("Assistant: Hello.");
      await feed(page, recorder, [partial("a", " More"), partial("a", " text.")]);
      // Carbon adds the chunks to an item that is done, and shows its text: nothing of them until the final response.
      expectPage(await settled(page, "Assistant: Hello.", 1_000)).toBe("Assistant: Hello.");
      expectPage(readRecorder(recorder)).toBe("Assistant: Hello. More text.");
      await feed(page, recorder, [final([item("a", "Hello. More text.")])]);
      expectPage(await settled(page, readRecorder(recorder))).toBe("Assistant: Hello. More text.");
    });

    // carbon-agui-rx sends the whole set each time (toStreamChunks), and a queue that joins chunks merges them as Carbon does (JoinedDeltas).
    it("options carrying part of the set: Carbon merges them by key and by index, the recorder takes the latest set whole", async () => {
      const page = await openChat();
      const recorder = new CarbonRecorder();
      await feed(page, recorder, [partial("a", "Looking", { chain_of_thought: [{ tool_name: "search", status: "processing" }, { tool_name: "fetch", status: "processing" }] })]);
      expectPage(await settled(page, readRecorder(recorder))).toBe("Assistant: Looking\n  How did I get this answer? search (processing), fetch (processing)");
      await feed(page, recorder, [partial("a", "", { chain_of_thought: [{ status: "success" }] })]);
      expectPage(await settled(page, "Assistant: Looking\n  How did I get this answer? search (success), fetch (processing)")).toBe(
        "Assistant: Looking\n  How did I get this answer? search (success), fetch (processing)",
      );
      expectPage(readRecorder(recorder)).toBe("Assistant: Looking\n  How did I get this answer? undefined (success)");
    });

    // carbon-agui-rx's final response carries the message options whenever any were sent (toStreamChunks).
    it("a final response without message options: Carbon drops the chain of thought that streamed, the recorder keeps it", async () => {
      const page = await openChat();
      const recorder = new CarbonRecorder();
      await feed(page, recorder, [partial("a", "Looking", { chain_of_thought: [{ tool_name: "search", status: "processing" }] })]);
      expectPage(await settled(page, readRecorder(recorder))).toBe("Assistant: Looking\n  How did I get this answer? search (processing)");
      await feed(page, recorder, [final([item("a", "Found it")])]);
      expectPage(await settled(page, "Assistant: Found it")).toBe("Assistant: Found it");
      expectPage(readRecorder(recorder)).toBe("Assistant: Found it\n  How did I get this answer? search (processing)");
    });
  });
});
