import { from } from "rxjs";
import type { CarbonItem } from "../../../src/carbon";
import type { PipelineElement } from "../../../src/instructions";
import { escapeHtml } from "../../../src/operators/render/escapeHtml";
import { instr } from "../../support/builders";
import { liveHtml } from "../../support/carbonMarkdown";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const complete = (itemId: string, item: CarbonItem): PipelineElement => ({ kind: "item.complete", itemId, item });
const options = (value: object): PipelineElement => ({ kind: "options", options: value });
const history: PipelineElement = { kind: "history.message", message: { id: "m1", role: "assistant", content: "<img src=x onerror=alert(1)>" } };

describe("escapeHtml", () => {
  it("escapes a tag split across deltas, and the complete item, leaving the history as the agent said it", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-c-(dh)-|", {
        a: instr.textDelta("m1", "<img sr"),
        b: instr.textDelta("m1", "c=x onerr"),
        c: instr.textDelta("m1", "or=alert(1)> `<b>`"),
        d: instr.textComplete("m1", "<img src=x onerror=alert(1)> `<b>`"),
        h: history,
      });
      expectObservable(source.pipe(escapeHtml())).toBe("-a-b-c-(dh)-|", {
        a: instr.textDelta("m1", "&lt;img sr"),
        b: instr.textDelta("m1", "c=x onerr"),
        // The closing backtick may yet grow into a longer run: it waits, and the complete item supersedes it.
        c: instr.textDelta("m1", "or=alert(1)> "),
        d: instr.textComplete("m1", "&lt;img src=x onerror=alert(1)> `<b>`"),
        h: history,
      });
      expectSubscriptions(source.subscriptions).toBe("^-----------!");
    });
  });

  it("holds what it cannot decide yet (a final `!`, an open code span) and sends it before the turn ends", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-b-s---|", { a: instr.textDelta("m1", "See!"), b: instr.textDelta("m1", "[x](https://e.test/x.png) and `<i"), s: instr.stopped() });
      expectObservable(source.pipe(escapeHtml())).toBe("-a-b-(ds)|", {
        a: instr.textDelta("m1", "See"),
        b: instr.textDelta("m1", "\\![x](https://e.test/x.png) and "),
        d: instr.textDelta("m1", "`<\u2060i"),
        s: instr.stopped(),
      });
    });
  });

  it("sends what waits when the source ends or fails, before the end goes on", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold("-a-|", { a: instr.textDelta("m1", "wow!") }).pipe(escapeHtml())).toBe("-a-(b|)", { a: instr.textDelta("m1", "wow"), b: instr.textDelta("m1", "!") });
      expectObservable(cold("-a-#", { a: instr.textDelta("m1", "`x") }).pipe(escapeHtml())).toBe("-a-(b#)", { a: instr.textDelta("m1", ""), b: instr.textDelta("m1", "`x") });
    });
  });

  it("escapes the markdown fields of items, nested ones too, and leaves other fields and user_defined items alone", () => {
    const html = "<img src=x onerror=alert(1)>";
    /** A card whose markdown fields hold `markdown`, and whose plain-text fields and user_defined data hold the raw HTML. */
    const card = (markdown: string): CarbonItem => ({
      response_type: "card",
      body: [
        { response_type: "text", text: markdown },
        { response_type: "option", title: markdown, description: markdown, options: [{ label: html, value: { input: { text: "a" } } }] },
        { response_type: "grid", columns: [{ width: "1" }], rows: [{ cells: [{ items: [{ response_type: "carousel", items: [{ response_type: "text", text: markdown }] }] }] }] },
        { response_type: "audio", source: "https://e.test/a.mp3", title: html, file_accessibility: { transcript: { text: markdown } } },
        { response_type: "user_defined", user_defined: { html } },
      ],
      footer: [{ response_type: "button", button_type: "show_panel", label: html, panel: { body: [{ response_type: "text", text: markdown }] }, message_item_options: { feedback: { disclaimer: markdown } } }],
    });
    const given = card(html);
    const result: PipelineElement[] = [];
    escapeHtml()(from([complete("c1", given)])).subscribe((element) => result.push(element));
    expect(result).toEqual([complete("c1", card("&lt;img src=x onerror=alert(1)>"))]);
    expect(given).toEqual(card(html));
  });

  it("keeps a conversational_search text safe from the ==highlights== Carbon inserts for citations, and moves the citation ranges with the text", () => {
    const text = "Use <b>bold</b> here";
    const result: PipelineElement[] = [];
    const item = { response_type: "conversational_search", text, citations: [{ title: "b", ranges: [{ start: 4, end: 15 }] }] };
    escapeHtml()(from([complete("s1", item)])).subscribe((element) => result.push(element));
    const [{ item: escaped }] = result as unknown as [{ item: { text: string; citations: [{ ranges: [{ start: number; end: number }] }] } }];
    const { start, end } = escaped.citations[0].ranges[0];
    expect(escaped.text.slice(start, end).replace(/\u2060/g, "")).toBe(text.slice(4, 15));
    expect(liveHtml(`${escaped.text.slice(0, start)}==${escaped.text.slice(start, end)}==${escaped.text.slice(end)}`)).toEqual([]);
  });

  it("escapes reasoning as it grows (and afresh when replaced) and chain-of-thought markdown, leaving JSON tool data to Carbon's code blocks", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-b-c-d-|", {
        a: options({ reasoning: { steps: [{ title: "Reasoning", content: "<img sr" }] } }),
        b: options({ reasoning: { steps: [{ title: "Reasoning", content: "<img src=x onerror=alert(1)> `<i" }] } }),
        c: options({ chain_of_thought: [{ tool_name: "fetch", description: "<b>d</b>", request: { args: '{"q":"<b>"}' }, response: { content: "<svg onload=alert(1)>" } }] }),
        d: options({ reasoning: { steps: [{ title: "Reasoning", content: "Replaced <i>" }] } }),
      });
      expectObservable(source.pipe(escapeHtml())).toBe("-a-b-c-d-|", {
        a: options({ reasoning: { steps: [{ title: "Reasoning", content: "&lt;img sr" }] } }),
        b: options({ reasoning: { steps: [{ title: "Reasoning", content: "&lt;img src=x onerror=alert(1)> `<\u2060i" }] } }),
        c: options({ chain_of_thought: [{ tool_name: "fetch", description: "&lt;b>d&lt;/b>", request: { args: '{"q":"<b>"}' }, response: { content: "&lt;svg onload=alert(1)>" } }] }),
        d: options({ reasoning: { steps: [{ title: "Reasoning", content: "Replaced &lt;i>" }] } }),
      });
    });
  });

  it("passes events and other instructions along untouched", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const values = { h: history, f: instr.finished(), o: options({ reasoning: { open_state: "open" } }) };
      expectObservable(cold("-h-o-f|", values).pipe(escapeHtml())).toBe("-h-o-f|", values);
    });
  });

  itFollowsTheOperatorContract(escapeHtml, instr.textDelta("m1", "plain") as PipelineElement);
});
