import type * as Carbon from "@carbon/ai-chat";
import type { CarbonAgUiAdapter } from "../../src/adapter";
import type { CarbonItem, CarbonThreadInstance } from "../../src/carbon";
import type { AgUiInvalidItemError } from "../../src/errors";
import { OPTIONS_CARRIER_ID } from "../../src/operators/render/toStreamChunks";
import { historyItemsOf, splitAtTurns, type CarbonHistoryItem, type CarbonHistoryResponse } from "../../src/persistence/restore";
import type { TranscriptEntry, TranscriptResponse } from "../../src/persistence/transcript";
import { TIME } from "./fixtures";

/** Our history items, with Carbon's enums where Carbon has them, are Carbon's `HistoryItem`s (checked by the compiler). */
type WithCarbonEnums<T> = T extends readonly (infer Item)[]
  ? WithCarbonEnums<Item>[]
  : T extends object
    ? { [K in keyof T]: K extends "response_type" ? Carbon.MessageResponseTypes : K extends "status" ? Carbon.ChainOfThoughtStepStatus : K extends "open_state" ? Carbon.ReasoningStepOpenState : K extends "message_type" ? Carbon.MessageInputType : WithCarbonEnums<T[K]> }
    : T;
type Assignable<Actual extends Expected, Expected> = Actual;
export type HistoryItemsAreCarbons = Assignable<WithCarbonEnums<CarbonHistoryItem>, Carbon.HistoryItem>;
export type LoadHistoryIsCustomLoadHistory = Assignable<CarbonAgUiAdapter["loadHistory"], NonNullable<Carbon.PublicConfigMessaging["customLoadHistory"]>>;
export type ChatInstanceSwitchesThreads = Assignable<Carbon.ChatInstance, CarbonThreadInstance>;

const response = (overrides: Partial<TranscriptResponse>): TranscriptResponse => ({ kind: "response", id: "r1", time: TIME, items: [], ...overrides });
const text = (value: string, id = "t1"): CarbonItem => ({ response_type: "text", text: value, streaming_metadata: { id } });
const restoredResponses = (transcript: TranscriptEntry[], options = {}) => historyItemsOf(transcript, { onInvalidItem: () => undefined, ...options }).map((item) => item.message as CarbonHistoryResponse);

describe("historyItemsOf", () => {
  it("gives each request and answer as Carbon history, in order, with their times", () => {
    const history = historyItemsOf([
      { kind: "request", id: "q1", text: "Weather?", time: TIME },
      response({ requestId: "q1", items: [text("Mild.")], feedback: { "fb-1": { is_positive: false, text: "too short" } } }),
    ]);
    expect(history).toEqual([
      { message: { id: "q1", input: { text: "Weather?", message_type: "text" }, history: { timestamp: Date.parse(TIME) } }, time: TIME },
      {
        message: { id: "r1", request_id: "q1", output: { generic: [text("Mild.")] }, history: { timestamp: Date.parse(TIME), feedback: { "fb-1": { is_positive: false, text: "too short" } } } },
        time: TIME,
      },
    ]);
  });

  it("keeps the chain of thought with each step's status, the reasoning steps, stopped marks and the error state", () => {
    const messageOptions = { chain_of_thought: [{ tool_name: "weather", status: "failure" as const }], reasoning: { steps: [{ title: "Reasoning", content: "Think." }] } };
    const stopped = { response_type: "text", text: "Cut", streaming_metadata: { id: "t1", stream_stopped: true } };
    const [restored] = restoredResponses([response({ items: [stopped], messageOptions, errorState: 3 })]);
    expect(restored).toMatchObject({ output: { generic: [stopped] }, message_options: messageOptions, history: { error_state: 3 } });
  });

  it("escapes HTML in restored text as in live text: items, nested items, chain-of-thought descriptions and reasoning", () => {
    const [restored] = restoredResponses([
      response({
        items: [text("<img src=x onerror=alert(1)> and ![t](https://t.example/p.png)"), { response_type: "card", body: [text("<b>bold</b>", "t2")], streaming_metadata: { id: "c" } }],
        messageOptions: { chain_of_thought: [{ tool_name: "t", description: "<script>x</script>" }], reasoning: { steps: [{ title: "R", content: "<iframe>" }] } },
      }),
    ]);
    expect(restored!.output.generic[0]!.text).toBe("&lt;img src=x onerror=alert(1)> and \\![t](https://t.example/p.png)");
    expect((restored!.output.generic[1]!.body as CarbonItem[])[0]!.text).toBe("&lt;b>bold&lt;/b>");
    expect(restored!.message_options).toEqual({ chain_of_thought: [{ tool_name: "t", description: "&lt;script>x&lt;/script>" }], reasoning: { steps: [{ title: "R", content: "&lt;iframe>" }] } });
  });

  it("lets HTML through with html: true, as live text", () => {
    const [restored] = restoredResponses([response({ items: [text("<b>trusted</b>")] })], { html: true });
    expect(restored!.output.generic[0]!.text).toBe("<b>trusted</b>");
  });

  it("makes an inline error's words inert again without piling up marks", () => {
    const [restored] = restoredResponses([response({ items: [{ response_type: "inline_error", text: "Failed: <\u2060img> <b>", streaming_metadata: { id: "e" } }] })]);
    expect(restored!.output.generic[0]!.text).toBe("Failed: <\u2060img> <\u2060b>");
  });

  it("checks every item again against the allowlist and the URL policy, leaving out and reporting the refused ones", () => {
    const refused: [unknown, AgUiInvalidItemError][] = [];
    const bad = { response_type: "image", source: "javascript:alert(1)", streaming_metadata: { id: "i" } };
    const unknownType = { response_type: "script", streaming_metadata: { id: "s" } };
    const [restored] = restoredResponses([response({ items: [bad, text("kept"), unknownType] })], { onInvalidItem: (item: unknown, error: AgUiInvalidItemError) => refused.push([item, error]) });
    expect(restored!.output.generic).toEqual([text("kept")]);
    expect(refused.map(([item, error]) => [item, error.problems])).toEqual([
      [bad, ["item 0.source: javascript: URLs are not allowed (only https:)"]],
      [unknownType, [expect.stringMatching(/^item 2\.response_type: must be one of/)]],
    ]);
    const [widened] = restoredResponses([response({ items: [{ ...bad, source: "http://intranet/p.png" }] })], { allowHttp: true });
    expect(widened!.output.generic).toHaveLength(1);
  });

  it("shows an answer saved while it streamed as stopped: its last item says so, processing steps failed", () => {
    const [restored] = restoredResponses([
      response({ items: [text("First", "a"), text("Partial", "b")], messageOptions: { chain_of_thought: [{ tool_name: "a", status: "success" }, { tool_name: "b", status: "processing" }] }, unfinished: true }),
    ]);
    expect(restored!.output.generic).toEqual([text("First", "a"), { response_type: "text", text: "Partial", streaming_metadata: { id: "b", stream_stopped: true } }]);
    expect(restored!.message_options!.chain_of_thought!.map((step) => step.status)).toEqual(["success", "failure"]);
  });

  it("keeps one item for an answer that has only options, so Carbon shows its reasoning; leaves out one that showed nothing", () => {
    const reasoning = { steps: [{ title: "Reasoning", content: "Hmm" }] };
    const [onlyOptions, ...rest] = restoredResponses([response({ id: "r1", messageOptions: { reasoning } }), response({ id: "r2" }), response({ id: "r3", items: [{ response_type: "image", source: "data:x" }] })]);
    expect(onlyOptions!.output.generic).toEqual([{ response_type: "text", text: "", streaming_metadata: { id: OPTIONS_CARRIER_ID } }]);
    expect(rest).toEqual([]);
  });
});

describe("splitAtTurns", () => {
  const turn = (n: number): CarbonHistoryItem[] => historyItemsOf([{ kind: "request", id: `q${n}`, text: `${n}`, time: TIME }, response({ id: `r${n}`, items: [text(`${n}`)] })]);
  const ids = (items: CarbonHistoryItem[]) => items.map((item) => item.message.id);

  it("keeps the last turns of a chat, each from its request on, and the rest before", () => {
    const { earlier, later } = splitAtTurns([...turn(1), ...turn(2), ...turn(3)], 2);
    expect(ids(earlier)).toEqual(["q1", "r1"]);
    expect(ids(later)).toEqual(["q2", "r2", "q3", "r3"]);
  });

  it("keeps all of a chat with no more turns than asked for, a response before the first request too", () => {
    const { earlier, later } = splitAtTurns([...historyItemsOf([response({ id: "r0", items: [text("hello")] })]), ...turn(1)], 2);
    expect(earlier).toEqual([]);
    expect(ids(later)).toEqual(["r0", "q1", "r1"]);
    expect(splitAtTurns([], 3)).toEqual({ earlier: [], later: [] });
  });
});
