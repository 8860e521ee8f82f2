import { map } from "rxjs";
import type { CarbonStreamChunk } from "../../../src/carbon";
import type { PipelineElement } from "../../../src/instructions";
import { escapeHtml } from "../../../src/operators/render/escapeHtml";
import { recordChunks } from "../../../src/operators/record/recordChunks";
import { instr } from "../../support/builders";
import { testScheduler } from "../../support/marbles";
import { itFollowsTheOperatorContract } from "../../support/operatorContract";

const elements = (values: Record<string, PipelineElement>) => values;

describe("recordChunks", () => {
  it("passes everything through and records the chunks toStreamChunks makes of it, with the same response id", () => {
    const recorded: CarbonStreamChunk[] = [];
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const values = elements({ d: instr.textDelta("m1", "Hi"), t: instr.finished() });
      const source = cold("-d-t|", values);
      expectObservable(source.pipe(recordChunks((chunk) => recorded.push(chunk), { responseId: "r1" }))).toBe("-d-t|", values);
      expectSubscriptions(source.subscriptions).toBe("^---!");
    });
    expect(recorded).toEqual([
      { partial_item: { response_type: "text", text: "Hi", streaming_metadata: { id: "m1", cancellable: true } }, streaming_metadata: { response_id: "r1" } },
      { final_response: { id: "r1", output: { generic: [{ response_type: "text", text: "Hi", streaming_metadata: { id: "m1" } }] } } },
    ]);
  });

  it("records the agent's text as it was when it comes before escapeHtml", () => {
    const recorded: CarbonStreamChunk[] = [];
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-d-t|", elements({ d: instr.textDelta("m1", "<b>"), t: instr.finished() }));
      expectObservable(source.pipe(recordChunks((chunk) => recorded.push(chunk), { responseId: "r1" }), escapeHtml())).toBe("-d-t|", {
        d: instr.textDelta("m1", "&lt;b>"),
        t: instr.finished(),
      });
    });
    expect(recorded.at(-1)).toMatchObject({ final_response: { output: { generic: [{ text: "<b>" }] } } });
  });

  it("ends the record with the final response when the turn fails, and leaves the error to the pipeline", () => {
    const recorded: CarbonStreamChunk[] = [];
    const error = new Error("boom");
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-d-f|", elements({ d: instr.textDelta("m1", "Hi"), f: instr.failed(error) }));
      expectObservable(source.pipe(recordChunks((chunk) => recorded.push(chunk), { responseId: "r1", describeError: false }))).toBe("-d-f|", {
        d: instr.textDelta("m1", "Hi"),
        f: instr.failed(error),
      });
    });
    expect(recorded.at(-1)).toMatchObject({ final_response: { id: "r1", history: { error_state: 3 } } });
  });

  it("records a source error as the failure the live answer shows, inline error included, and passes the error on", () => {
    const recorded: CarbonStreamChunk[] = [];
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold("-d-#", elements({ d: instr.textDelta("m1", "Hi") }), new Error("network down"));
      expectObservable(source.pipe(recordChunks((chunk) => recorded.push(chunk), { responseId: "r1" }))).toBe("-d-#", { d: instr.textDelta("m1", "Hi") }, new Error("network down"));
    });
    expect(recorded.map((chunk) => Object.keys(chunk)[0])).toEqual(["partial_item", "final_response"]);
    expect(recorded.at(-1)).toMatchObject({ final_response: { output: { generic: [{ text: "Hi" }, { response_type: "inline_error", text: expect.stringMatching(/^This answer is incomplete\. /) }] } } });
  });

  it("errors when a downstream callback throws", () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-d-|", elements({ d: instr.textDelta("m1", "Hi") }));
      const result = source.pipe(
        recordChunks(() => undefined, {}),
        map(() => {
          throw new Error("bad");
        }),
      );
      expectObservable(result).toBe("-#", undefined, new Error("bad"));
      expectSubscriptions(source.subscriptions).toBe("^!");
    });
  });

  itFollowsTheOperatorContract(() => recordChunks(() => undefined, {}), instr.textDelta("m1", "x"));
});
