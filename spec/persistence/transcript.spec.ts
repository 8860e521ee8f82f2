import type { CarbonStreamChunk } from "../../src/carbon";
import { ResponseDraft } from "../../src/persistence/transcript";

const TIME = "2026-12-01T10:00:00.000Z";
const meta = { response_id: "r1" };
const delta = (id: string, text: string, responseType = "text"): CarbonStreamChunk => ({ partial_item: { response_type: responseType, text, streaming_metadata: { id } }, streaming_metadata: meta });

describe("ResponseDraft", () => {
  it("joins the text deltas of each item, as Carbon does, and marks the draft unfinished until the final response", () => {
    const draft = new ResponseDraft("r1", TIME, "q1");
    for (const chunk of [delta("a", "Hel"), delta("b", "Other"), delta("a", "lo")]) draft.add(chunk);
    expect(draft.finished).toBe(false);
    expect(draft.toEntry()).toEqual({
      kind: "response",
      id: "r1",
      requestId: "q1",
      time: TIME,
      items: [
        { response_type: "text", text: "Hello", streaming_metadata: { id: "a" } },
        { response_type: "text", text: "Other", streaming_metadata: { id: "b" } },
      ],
      unfinished: true,
    });
  });

  it("lets a complete item replace what streamed, and goes on from its text when it streams again", () => {
    const draft = new ResponseDraft("r1", TIME);
    draft.add(delta("a", "draft"));
    draft.add({ complete_item: { response_type: "text", text: "Done.", streaming_metadata: { id: "a" } }, streaming_metadata: meta });
    expect(draft.toEntry().items).toEqual([{ response_type: "text", text: "Done.", streaming_metadata: { id: "a" } }]);
    draft.add(delta("a", " More."));
    expect(draft.toEntry().items).toEqual([{ response_type: "text", text: "Done. More.", streaming_metadata: { id: "a" } }]);
  });

  it("keeps the fields of other item types from their chunks, without joining them", () => {
    const draft = new ResponseDraft("r1", TIME);
    draft.add({ partial_item: { response_type: "user_defined", user_defined: { step: 1 }, streaming_metadata: { id: "u" } }, streaming_metadata: meta });
    draft.add({ partial_item: { response_type: "user_defined", user_defined: { step: 2 }, streaming_metadata: { id: "u" } }, streaming_metadata: meta });
    expect(draft.toEntry().items).toEqual([{ response_type: "user_defined", user_defined: { step: 2 }, streaming_metadata: { id: "u" } }]);
  });

  it("keeps the latest message options, merged by key", () => {
    const draft = new ResponseDraft("r1", TIME);
    draft.add({ ...delta("a", ""), partial_response: { message_options: { chain_of_thought: [{ tool_name: "weather", status: "processing" }] } } });
    draft.add({ ...delta("a", "x"), partial_response: { message_options: { reasoning: { steps: [{ title: "Reasoning" }] } } } });
    draft.add({ ...delta("a", ""), partial_response: { message_options: { chain_of_thought: [{ tool_name: "weather", status: "success" }] } } });
    expect(draft.toEntry().messageOptions).toEqual({ chain_of_thought: [{ tool_name: "weather", status: "success" }], reasoning: { steps: [{ title: "Reasoning" }] } });
  });

  it("merges message options as Carbon does, a step's fields by its index", () => {
    const draft = new ResponseDraft("r1", TIME);
    draft.add({ ...delta("a", ""), partial_response: { message_options: { chain_of_thought: [{ tool_name: "weather", status: "processing" }, { tool_name: "map", status: "processing" }] } } });
    draft.add({ ...delta("a", ""), partial_response: { message_options: { chain_of_thought: [{ status: "success" }] } } });
    expect(draft.toEntry().messageOptions).toEqual({ chain_of_thought: [{ tool_name: "weather", status: "success" }, { tool_name: "map", status: "processing" }] });
  });

  it("gives a snapshot: chunks added after it leave an entry already read as it was", () => {
    const draft = new ResponseDraft("r1", TIME);
    const card = (step: number): CarbonStreamChunk => ({ partial_item: { response_type: "user_defined", user_defined: { step }, streaming_metadata: { id: "u" } }, streaming_metadata: meta });
    draft.add(delta("a", "Hel"));
    draft.add(card(1));
    const before = draft.toEntry();
    draft.add(delta("a", "lo"));
    draft.add(card(2));
    expect(before.items).toEqual([
      { response_type: "text", text: "Hel", streaming_metadata: { id: "a" } },
      { response_type: "user_defined", user_defined: { step: 1 }, streaming_metadata: { id: "u" } },
    ]);
    expect(draft.toEntry().items.map((item) => item.text ?? item.user_defined)).toEqual(["Hello", { step: 2 }]);
  });

  it("takes the final response as it is: its items, options and error state", () => {
    const draft = new ResponseDraft("r1", TIME);
    draft.add(delta("a", "partial"));
    draft.add({
      final_response: {
        id: "r1",
        output: { generic: [{ response_type: "text", text: "Whole", streaming_metadata: { id: "a", stream_stopped: true } }] },
        history: { error_state: 3 },
        message_options: { reasoning: { steps: [] } },
      },
    });
    expect(draft.finished).toBe(true);
    expect(draft.toEntry()).toEqual({
      kind: "response",
      id: "r1",
      time: TIME,
      items: [{ response_type: "text", text: "Whole", streaming_metadata: { id: "a", stream_stopped: true } }],
      messageOptions: { reasoning: { steps: [] } },
      errorState: 3,
    });
  });

  it("is empty before any chunk", () => {
    expect(new ResponseDraft("r1", TIME).toEntry()).toEqual({ kind: "response", id: "r1", time: TIME, items: [], unfinished: true });
  });
});
