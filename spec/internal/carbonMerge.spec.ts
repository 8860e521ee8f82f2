import type { CarbonItem, CarbonItemDelta, CarbonMessageOptions } from "../../src/carbon";
import { addCompleteItem, addPartialItem, mergeMessageOptions, type StreamedItem, type StreamedItems } from "../../src/internal/carbonMerge";
import { deepFreeze } from "../../src/internal/deepFreeze";

/** An item as Carbon has it so far: an open one with its text joined, a complete one itself. */
const itemOf = (state: StreamedItem): CarbonItem => (state.open && state.text ? { ...state.item, text: state.text.toString() } : state.item);
const text = (value: string): CarbonItemDelta => deepFreeze({ response_type: "text", text: value });
const shown = (items: StreamedItems) => Array.from(items.values(), itemOf);

describe("carbonMerge: Carbon's rules for building a message from chunks", () => {
  it("appends each partial text of a joined type to the item's text, kept in a buffer while the item streams", () => {
    const items: StreamedItems = new Map();
    for (const piece of ["Hel", "lo", "", " world"]) addPartialItem(items, "a", text(piece), { id: "a" });
    addPartialItem(items, "b", deepFreeze({ response_type: "conversational_search", text: "Found" }), { id: "b" });
    addPartialItem(items, "b", deepFreeze({ response_type: "conversational_search", text: " it" }), { id: "b" });
    expect(items.get("a")?.text?.toString()).toBe("Hello world");
    expect(shown(items)).toEqual([
      { response_type: "text", text: "Hello world", streaming_metadata: { id: "a" } },
      { response_type: "conversational_search", text: "Found it", streaming_metadata: { id: "b" } },
    ]);
  });

  it("assigns the other fields of a partial item, and every field of a type whose text Carbon does not join", () => {
    const items: StreamedItems = new Map();
    addPartialItem(items, "u", deepFreeze({ response_type: "user_defined", user_defined: { step: 1 }, text: "one" }));
    addPartialItem(items, "u", deepFreeze({ response_type: "user_defined", user_defined: { step: 2 }, text: "two" }));
    addPartialItem(items, "a", deepFreeze({ response_type: "text", text: "Hi", title: "first" }));
    addPartialItem(items, "a", deepFreeze({ response_type: "text", text: "!", title: "second" }));
    expect(items.get("u")?.text).toBeUndefined();
    expect(shown(items)).toEqual([
      { response_type: "user_defined", user_defined: { step: 2 }, text: "two" },
      { response_type: "text", text: "Hi!", title: "second" },
    ]);
  });

  it("copies an item once, when it opens, and extends that copy: the deltas given are never changed", () => {
    const items: StreamedItems = new Map();
    const first = text("a");
    const state = addPartialItem(items, "a", first, { id: "a" });
    expect(state.item).not.toBe(first);
    expect(addPartialItem(items, "a", text("b"))).toBe(state);
    expect(state.item.streaming_metadata).toEqual({ id: "a" });
  });

  it("lets a complete item replace what streamed under its id, kept as it is", () => {
    const items: StreamedItems = new Map();
    addPartialItem(items, "a", text("draft"), { id: "a" });
    const complete: CarbonItem = deepFreeze({ response_type: "text", text: "Done.", streaming_metadata: { id: "a", stream_stopped: true } });
    addCompleteItem(items, "a", complete);
    expect(itemOf(items.get("a")!)).toBe(complete);
  });

  it("goes on from a complete item's text when it streams again, leaving the complete item as it was", () => {
    const items: StreamedItems = new Map();
    const complete: CarbonItem = deepFreeze({ response_type: "text", text: "Done.", streaming_metadata: { id: "a" }, extra: 1 });
    addCompleteItem(items, "a", complete);
    addPartialItem(items, "a", text(" More."), { id: "a" });
    addPartialItem(items, "a", text(" Yet more."));
    expect(shown(items)).toEqual([{ response_type: "text", text: "Done. More. Yet more.", streaming_metadata: { id: "a" }, extra: 1 }]);
    expect(complete.text).toBe("Done.");
  });

  describe("mergeMessageOptions", () => {
    it("merges as Carbon does (lodash merge): objects by key, arrays by index, an undefined value leaving what was there", () => {
      const earlier: CarbonMessageOptions = deepFreeze({ chain_of_thought: [{ tool_name: "search", status: "processing" }, { tool_name: "fetch", status: "processing" }], reasoning: { steps: [{ title: "Reasoning" }] } });
      const later = deepFreeze({ chain_of_thought: [{ status: "success" }], reasoning: { open_state: "open", steps: undefined } }) as unknown as CarbonMessageOptions;
      expect(mergeMessageOptions(earlier, later)).toEqual({
        chain_of_thought: [{ tool_name: "search", status: "success" }, { tool_name: "fetch", status: "processing" }],
        reasoning: { open_state: "open", steps: [{ title: "Reasoning" }] },
      });
    });

    it("takes the later options themselves when there were none", () => {
      const later: CarbonMessageOptions = { chain_of_thought: [] };
      expect(mergeMessageOptions(undefined, later)).toBe(later);
      expect(mergeMessageOptions({ reasoning: { content: "x" } }, { reasoning: { steps: [] } })).toEqual({ reasoning: { content: "x", steps: [] } });
    });

    it("keeps what the later options repeat as it was, copying only the containers on the way to what changed", () => {
      const search = { tool_name: "search", status: "success" as const, request: { args: { query: "x" } } };
      const reasoning = { steps: [{ title: "Reasoning" }] };
      const earlier: CarbonMessageOptions = deepFreeze({ chain_of_thought: [search, { tool_name: "fetch", status: "processing" }], reasoning });
      const later: CarbonMessageOptions = deepFreeze({ chain_of_thought: [search, { tool_name: "fetch", status: "success" }], reasoning });
      const merged = mergeMessageOptions(earlier, later);
      expect(merged).toEqual(later);
      expect(merged.reasoning).toBe(reasoning);
      expect(merged.chain_of_thought?.[0]).toBe(search);
      expect(merged.chain_of_thought).not.toBe(earlier.chain_of_thought);
    });
  });

});
