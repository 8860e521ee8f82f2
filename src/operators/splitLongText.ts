import type { MonoTypeOperatorFunction } from "rxjs";
import type { ItemDeltaInstruction, PipelineElement } from "../instructions";
import { createOperator } from "../internal/operator";
import { TextBuffer } from "../internal/textBuffer";

/** How long a streamed text item grows before it goes on in a new item, at the next paragraph break. */
export const SPLIT_TEXT_AT = 2_000;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])( |\t|$)/;
/** The start of a line that may still turn out to be a list item once more of it arrives. */
const MAYBE_LIST_ITEM = /^([-*+]|\d{1,9}[.)]?)$/;

/** Where one streamed text item stands: the part showing now, and the markdown around the end of its text. */
interface Parts {
  /** The id of the part streaming now: the item's own id for the first part, `${itemId}#n` after. */
  partId: string;
  parts: number;
  /** The text of the part streaming now. */
  text: TextBuffer;
  length: number;
  /** How many characters the parts before this one hold. */
  before: number;
  /** The current line so far (its first characters: enough to tell a fence or a list item). */
  line: string;
  lineIsBlank: boolean;
  /** The line before was blank: a paragraph break, where a new part may begin. */
  afterBlankLine: boolean;
  /** The last character was a CR: a LF right after it ends no further line (CommonMark's line endings are LF, CR and CRLF). */
  afterCR: boolean;
  /** The fence of the code block the text is in, if any: a part never begins inside one. */
  fence: string | undefined;
  /** The last block was a list item: a part never begins with the next item of the same list. */
  inList: boolean;
}

/**
 * Carbon AI Chat renders a text item's whole markdown again for every chunk
 * of it, so the cost of each update grows with the answer: a long answer
 * costs quadratic time overall and, on a slow device, most of the main
 * thread. Carbon does not render an item again while its text is unchanged,
 * so this operator bounds the cost: once a streamed text item holds `atLeast`
 * characters, it goes on in a new item (`${itemId}#2`, `#3`, …) at the next
 * paragraph break, and the part before completes. The answer reads the same:
 * a part begins only after a blank line, never inside a fenced code block,
 * before an indented line (code, or a paragraph of a list item) or between
 * two items of one list. The history keeps the message whole.
 *
 * Each item's `item.complete` (the whole text) completes the part streaming
 * then, with the text that part holds; a reopened item goes on in its last
 * part. Items that were never streamed, and other item types, pass as they
 * are.
 *
 * ```
 * source: --a--b--c--C|     a: "Long…\n\n"; b: "More"; c: " text"; C: item.complete, the whole text    (atLeast: 5)
 * result: --a--(pq)-r--s|   p: item.complete m1 "Long…\n\n"; q: item.delta m1#2 "More"; r: " text"; s: item.complete m1#2 "More text"
 * ```
 */
export function splitLongText(atLeast: number = SPLIT_TEXT_AT): MonoTypeOperatorFunction<PipelineElement> {
  return createOperator<PipelineElement, PipelineElement>((out) => {
    const items = new Map<string, Parts>();

    const startPart = (itemId: string, parts: Parts | undefined): Parts => {
      const number = (parts?.parts ?? 0) + 1;
      return {
        partId: number === 1 ? itemId : `${itemId}#${number}`,
        parts: number,
        text: new TextBuffer(),
        length: 0,
        before: parts ? parts.before + parts.length : 0,
        line: "",
        lineIsBlank: true,
        afterBlankLine: false,
        afterCR: false,
        fence: parts?.fence,
        inList: parts?.inList ?? false,
      };
    };

    const send = (parts: Parts, element: ItemDeltaInstruction, text: string) => {
      if (text === "") return;
      parts.text.append(text);
      parts.length += text.length;
      out.next({ kind: "item.delta", itemId: parts.partId, item: { ...element.item, text } });
    };

    /** Whether a new part may begin with the line whose first character is `char`, once the part holds `length` characters. */
    const mayBeginWith = (parts: Parts, length: number, char: string, rest: string) =>
      length >= atLeast && parts.afterBlankLine && parts.fence === undefined && char !== " " && char !== "\t" && !(parts.inList && (LIST_ITEM.test(char + rest) || MAYBE_LIST_ITEM.test(char + rest)));

    const endLine = (parts: Parts) => {
      const fence = FENCE.exec(parts.line)?.[1];
      if (fence && parts.fence === undefined) parts.fence = fence;
      else if (fence && parts.fence !== undefined && fence[0] === parts.fence[0] && fence.length >= parts.fence.length) parts.fence = undefined;
      if (!parts.lineIsBlank && parts.fence === undefined && !fence) parts.inList = LIST_ITEM.test(parts.line) || (parts.inList && /^[ \t]/.test(parts.line));
      parts.afterBlankLine = parts.lineIsBlank;
      parts.line = "";
      parts.lineIsBlank = true;
    };

    const splitDelta = (element: ItemDeltaInstruction, text: string) => {
      let parts = items.get(element.itemId) ?? startPart(element.itemId, undefined);
      items.set(element.itemId, parts);
      let from = 0;
      for (let at = 0; at < text.length; at++) {
        const char = text[at]!;
        const afterCR = parts.afterCR;
        parts.afterCR = char === "\r";
        if (char === "\r" || char === "\n") {
          if (!(char === "\n" && afterCR)) endLine(parts);
          continue;
        }
        if (parts.line.length === 0 && mayBeginWith(parts, parts.length + at - from, char, text.slice(at + 1, at + 12))) {
          send(parts, element, text.slice(from, at));
          out.next({ kind: "item.complete", itemId: parts.partId, item: { response_type: "text", text: parts.text.toString() } });
          parts = startPart(element.itemId, parts);
          items.set(element.itemId, parts);
          from = at;
        }
        if (parts.line.length < 16) parts.line += char;
        if (char !== " " && char !== "\t") parts.lineIsBlank = false;
      }
      send(parts, element, text.slice(from));
    };

    return {
      next(element) {
        if ("type" in element) return out.next(element);
        if (element.kind === "item.delta" && element.item.response_type === "text" && typeof element.item.text === "string") {
          return splitDelta(element, element.item.text);
        }
        const parts = element.kind === "item.complete" ? items.get(element.itemId) : undefined;
        if (element.kind !== "item.complete" || !parts || parts.parts === 1 || typeof element.item.text !== "string") return out.next(element);
        // The whole text completes the part streaming now: its own share of it.
        out.next({ ...element, itemId: parts.partId, item: { ...element.item, text: element.item.text.slice(parts.before) } });
      },
    };
  }, ["item.delta", "item.complete"]);
}
