import fc from "fast-check";
import { from } from "rxjs";
import type { ItemCompleteInstruction, ItemDeltaInstruction, PipelineElement } from "../../src/instructions";
import { splitLongText } from "../../src/operators/splitLongText";
import { instr } from "../support/builders";
import { carbonMarkdown } from "../support/carbonMarkdown";
import { testScheduler } from "../support/marbles";
import { itFollowsTheOperatorContract } from "../support/operatorContract";

const delta = instr.textDelta;
const complete = instr.textComplete;

/** Runs `elements` through the operator, collecting what comes out. */
function through(elements: PipelineElement[], atLeast: number): PipelineElement[] {
  const out: PipelineElement[] = [];
  from(elements)
    .pipe(splitLongText(atLeast))
    .subscribe((element) => out.push(element));
  return out;
}

/** Each part's text as Carbon would hold it at the end: its deltas joined, replaced by its complete item. */
function parts(elements: PipelineElement[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const element of elements) {
    if (element.kind === "item.delta") texts.set(element.itemId, (texts.get(element.itemId) ?? "") + String((element as ItemDeltaInstruction).item.text));
    if (element.kind === "item.complete") texts.set(element.itemId, String((element as ItemCompleteInstruction).item.text));
  }
  return texts;
}

describe("splitLongText", () => {
  it("goes on in a new item at the first paragraph break past the limit, completing the part before", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-----c-C-|", {
        a: delta("m1", "One two\n\nthree"),
        b: delta("m1", " four\n\nFive"),
        c: delta("m1", " six"),
        C: complete("m1", "One two\n\nthree four\n\nFive six"),
      });
      const expected = "   -a-(cde)-f-g-|";
      expectObservable(source.pipe(splitLongText(10))).toBe(expected, {
        a: delta("m1", "One two\n\nthree"),
        c: delta("m1", " four\n\n"),
        d: complete("m1", "One two\n\nthree four\n\n"),
        e: delta("m1#2", "Five"),
        f: delta("m1#2", " six"),
        g: complete("m1#2", "Five six"),
      });
      expectSubscriptions(source.subscriptions).toBe("^------------!");
    });
  });

  it("leaves a text shorter than the limit as it is", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = { a: delta("m1", "Short\n\nanswer"), C: complete("m1", "Short\n\nanswer") };
      expectObservable(cold("-a-C-|", values).pipe(splitLongText(100))).toBe("-a-C-|", values);
    });
  });

  it.each([
    ["inside a fenced code block", "Intro text.\n\n```js\nlet a = 1;\n\n", "let b = 2;\n```\n\nAfter.", "```js\nlet a = 1;\n\nlet b = 2;\n```\n\n"],
    ["before an indented line (a list item's paragraph)", "Intro text.\n\n- item one\n\n", "  still item one\n\nAfter.", "- item one\n\n  still item one\n\n"],
    ["between two items of one list", "Intro text.\n\n1. one one one\n\n", "2. two\n\nAfter.", "1. one one one\n\n2. two\n\n"],
  ])("never begins a part %s", (_where, first, rest, block) => {
    const text = first + rest;
    const out = through([delta("m1", first), delta("m1", rest), complete("m1", text)], 5);
    // A part may begin before the block and after it, never within it.
    expect([...parts(out).values()]).toEqual(["Intro text.\n\n", block, "After."]);
  });

  it("finds a break that arrives split over deltas", () => {
    const out = through([delta("m1", "Paragraph one.\n"), delta("m1", "\n"), delta("m1", "Two")], 5);
    expect([...parts(out)]).toEqual([
      ["m1", "Paragraph one.\n\n"],
      ["m1#2", "Two"],
    ]);
  });

  it("goes on in its last part when the item streams again after completing (a reopened message)", () => {
    const out = through([delta("m1", "Long enough.\n\nMore"), complete("m1", "Long enough.\n\nMore"), delta("m1", " again"), complete("m1", "Long enough.\n\nMore again")], 5);
    expect(out.slice(-2)).toEqual([delta("m1#2", " again"), complete("m1#2", "More again")]);
  });

  it("passes other items, instructions and events as they are", () => {
    const card: PipelineElement = { kind: "item.complete", itemId: "c1", item: { response_type: "card", body: [] } };
    const end: PipelineElement = { kind: "turn.end", how: "finished" };
    expect(through([card, end], 1)).toEqual([card, end]);
  });

  it("reads the same in Carbon's markdown: the parts rendered one by one make the whole's HTML (fast-check against markdown-it)", () => {
    const md = carbonMarkdown(false);
    const block = fc.constantFrom(
      "A paragraph of words.",
      "# A heading",
      "- item\n- item",
      "1. first\n2. second",
      "- item\n\n  its second paragraph",
      "3. third",
      "> quoted",
      "```\ncode\n\nmore code\n```",
      "~~~\n```\n\n~~~",
      "    indented code\n\n    still code",
      "| a | b |\n|---|---|\n| 1 | 2 |",
      "Line\r\nwith CRLF",
      "```\r\nfenced with CR\r\n\r\ntext\r```",
      "* star item",
      "+ plus\n  - nested",
      "10) tenth",
      "> quote\nlazy line",
      "***",
      "Setext\n---",
      "<div>\nhtml block\n</div>",
      "Text `code span` and *emphasis*.",
      "",
      "   ",
      "\t",
    );
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 12 }), fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 20 }), fc.integer({ min: 1, max: 40 }), (blocks, cuts, atLeast) => {
        const text = blocks.join("\n\n");
        const deltas: PipelineElement[] = [];
        for (let at = 0, cut = 0; at < text.length; cut++) {
          const size = cuts[cut % cuts.length]!;
          deltas.push(delta("m1", text.slice(at, at + size)));
          at += size;
        }
        const texts = [...parts(through([...deltas, complete("m1", text)], atLeast)).values()];
        expect(texts.join("")).toBe(text);
        expect(texts.map((part) => md.render(part)).join("")).toBe(md.render(text));
      }),
      { numRuns: 500 },
    );
  });

  itFollowsTheOperatorContract(() => splitLongText(1), { kind: "history.reserve", messageId: "m1", role: "assistant" } as PipelineElement);
});
