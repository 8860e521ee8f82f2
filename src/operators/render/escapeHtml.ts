import type { MonoTypeOperatorFunction } from "rxjs";
import { JOINED_TEXT_TYPES, type CarbonChainOfThoughtStep, type CarbonItem, type CarbonMessageOptions, type CarbonReasoningSteps } from "../../carbon";
import type { PipelineElement } from "../../instructions";
import { isRecord } from "../../internal/isRecord";
import { escapeMarkdownHtml, MarkdownHtmlEscaper } from "../../internal/markdownHtml";
import { createOperator } from "../fusion";

/**
 * Makes HTML in what the agent says display as text instead of running in
 * the page: Carbon AI Chat renders raw HTML in markdown as it is, unless the
 * host sets `shouldSanitizeHTML`. It works on the markdown Carbon renders —
 * streamed text (on the text so far, so a tag split across deltas is caught;
 * the output is the same however the text was split), complete items and the
 * markdown fields of items nested in cards, carousels, grids and button
 * panels, reasoning, and chain-of-thought descriptions and tool input and
 * output — and never on the history, which keeps what the agent said.
 *
 * Outside code, `<` becomes `&lt;`, a markdown image `![alt](url)` a link
 * after a `!` (no remote image is fetched unasked), and Carbon's `{{…}}`
 * attribute syntax (a link's `target`) is made inert; code blocks and code spans
 * stay exactly as they were (see `escapeMarkdownHtml`). A `<` or a `!` at the
 * end of a delta may wait for the next one; what waits goes out before the
 * item completes or the turn ends.
 *
 * ```
 * source: --a--b--c--|    a, b: item.delta "<im" / "g src=x>"; c: item.complete "<img src=x>"
 * result: --a--b--c--|    a: "&lt;im"; b: "g src=x>"; c: "&lt;img src=x>"
 * ```
 */
export function escapeHtml(): MonoTypeOperatorFunction<PipelineElement> {
  return createOperator<PipelineElement, PipelineElement>(
    (out) => {
      const streaming = new Map<string, { responseType: string; escaper: MarkdownHtmlEscaper }>();
      const reasoning = new Map<number | "content", GrowingText>();

      const sendWaitingText = () => {
        for (const [itemId, { responseType, escaper }] of streaming) {
          const text = escaper.end();
          if (text !== "") out.next({ kind: "item.delta", itemId, item: { response_type: responseType, text } });
        }
        streaming.clear();
      };
      const escapeGrowing = (key: number | "content", content: string) => {
        let growing = reasoning.get(key);
        // A step's content only grows; anything else starts over. (The same string, for steps that did not change, is found at once.)
        if (!growing || (content !== growing.input && !content.startsWith(growing.input))) reasoning.set(key, (growing = new GrowingText()));
        return growing.escape(content);
      };
      const escapeReasoning = (value: CarbonReasoningSteps) =>
        edit(value, {
          content: (content) => (typeof content === "string" ? escapeGrowing("content", content) : content),
          steps: (steps) =>
            Array.isArray(steps) ? steps.map((step: unknown, index) => (isRecord(step) && typeof step.content === "string" ? edit(step, { content: () => escapeGrowing(index, step.content as string) }) : step)) : steps,
        });

      return {
        next(element) {
          if ("type" in element) return out.next(element);
          switch (element.kind) {
            case "item.delta": {
              const { item, itemId } = element;
              if (typeof item.text !== "string" || !JOINED_TEXT_TYPES.has(item.response_type)) return out.next(element);
              let open = streaming.get(itemId);
              if (!open) streaming.set(itemId, (open = { responseType: item.response_type, escaper: new MarkdownHtmlEscaper(item.response_type === "text") }));
              const text = open.escaper.push(item.text);
              // Most deltas have nothing to escape: pass them on as they are.
              if (text === item.text) return out.next(element);
              const escaped = Object.assign({}, item);
              escaped.text = text;
              return out.next({ kind: "item.delta", itemId, item: escaped });
            }
            case "item.complete":
              streaming.delete(element.itemId);
              return out.next({ kind: "item.complete", itemId: element.itemId, item: escapeItem(element.item) });
            case "options": {
              const options: CarbonMessageOptions = edit(element.options, {
                reasoning: (value) => (isRecord(value) ? escapeReasoning(value) : value),
                chain_of_thought: (steps) => (Array.isArray(steps) ? steps.map(escapeStep) : steps),
              });
              return out.next(options === element.options ? element : { kind: "options", options });
            }
            case "turn.end":
              sendWaitingText();
              return out.next(element);
            default:
              return out.next(element);
          }
        },
        complete: sendWaitingText,
        error: sendWaitingText,
      };
    },
    ["item.delta", "item.complete", "options", "turn.end"],
  );
}

/** A text re-sent whole as it grows (a reasoning step's content), escaped in linear time overall. */
class GrowingText {
  input = "";
  private readonly escaper = new MarkdownHtmlEscaper();
  private output = "";

  escape(content: string): string {
    if (content === this.input) return this.output + this.escaper.peekPending();
    if (content.length > this.input.length) {
      this.output += this.escaper.push(content.slice(this.input.length));
      this.input = content;
    }
    // What still waits (a backtick's line, a final "!") shows inert, as it may be code or prose.
    return this.output + this.escaper.peekPending();
  }
}

type Edit = (value: unknown) => unknown;

/** `record` with the given fields edited; itself when nothing changed. */
function edit<T extends object>(record: T, fields: Record<string, Edit>): T {
  let copy: Record<string, unknown> | undefined;
  for (const [field, change] of Object.entries(fields)) {
    if (!Object.hasOwn(record, field)) continue;
    const before = (record as Record<string, unknown>)[field];
    const after = change(before);
    if (after !== before) (copy ??= Object.assign({}, record) as Record<string, unknown>)[field] = after;
  }
  return (copy as T | undefined) ?? record;
}

const markdown: Edit = (value) => (typeof value === "string" ? escapeMarkdownHtml(value) : value);
const within =
  (fields: Record<string, Edit>): Edit =>
  (value) =>
    isRecord(value) ? edit(value, fields) : value;
const each =
  (change: Edit): Edit =>
  (value) =>
    Array.isArray(value) ? value.map(change) : value;
const items: Edit = each((item) => (isRecord(item) ? escapeItem(item as CarbonItem) : item));
/** Tool input or output: Carbon shows a JSON string as a code block, anything else as markdown. */
const toolData: Edit = (value) => (typeof value === "string" && !isJson(value) ? escapeMarkdownHtml(value) : value);

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const escapeStep = (step: unknown) =>
  isRecord(step) ? edit(step as CarbonChainOfThoughtStep, { description: markdown, request: within({ args: toolData }), response: within({ content: toolData }) }) : step;

/** Complete message options (a restored answer's) with the HTML in their markdown made to display as text, as `escapeHtml()` shows them streaming. */
export function escapeMessageOptions(options: CarbonMessageOptions): CarbonMessageOptions {
  return edit(options, { reasoning: within({ content: markdown, steps: each(within({ content: markdown })) }), chain_of_thought: each(escapeStep) });
}

const media = { file_accessibility: within({ transcript: within({ text: markdown }) }) };

/** The fields Carbon 1.9.1 renders as markdown (with raw HTML), and the nested items, by `response_type`. */
const MARKDOWN_FIELDS: Readonly<Record<string, Record<string, Edit>>> = {
  text: { text: markdown },
  option: { title: markdown, description: markdown },
  image: media,
  video: media,
  audio: media,
  connect_to_agent: { agent_available: within({ message: markdown }), agent_unavailable: within({ message: markdown }) },
  card: { body: items, footer: items },
  carousel: { items },
  grid: { rows: each(within({ cells: each(within({ items })) })) },
  button: { panel: within({ body: items, footer: items }) },
};
const EVERY_ITEM = { message_item_options: within({ feedback: within({ disclaimer: markdown }) }) };

/** `item` with the HTML in its markdown made to display as text, nested items too. */
export function escapeItem(item: CarbonItem): CarbonItem {
  const fields = Object.hasOwn(MARKDOWN_FIELDS, item.response_type) ? MARKDOWN_FIELDS[item.response_type] : undefined;
  const escaped = edit(item, { ...fields, ...EVERY_ITEM });
  return item.response_type === "conversational_search" ? escapeSearchResult(escaped) : escaped;
}

/**
 * Carbon inserts `==` into a `conversational_search` text for its citations'
 * ranges, and renders it without sanitizing even with `shouldSanitizeHTML`:
 * so nothing in it is taken as code, and the ranges move with the text.
 */
function escapeSearchResult(item: CarbonItem): CarbonItem {
  if (typeof item.text !== "string") return item;
  const shifts: [number, number][] = [];
  const escaper = new MarkdownHtmlEscaper(false, shifts);
  const text = escaper.push(item.text) + escaper.end();
  if (text === item.text) return item;
  const moved = (position: unknown) => (typeof position === "number" ? shifts.reduce((at, [index, added]) => (index < position ? at + added : at), position) : position);
  const range = within({ start: moved, end: moved });
  return edit(item, { text: () => text, citations: each(within({ ranges: each(range) })) });
}
