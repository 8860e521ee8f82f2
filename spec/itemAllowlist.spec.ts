import { CARBON_RESPONSE_TYPES, carbonItemProblems } from "../src/itemAllowlist";

const input = { text: "yes" };
/** A valid item of each type, and a broken one with what is wrong. */
const cases: Record<string, { valid: object; broken: object; problem: string }> = {
  text: { valid: { text: "Hi" }, broken: { text: 5 }, problem: "item.text: must be a string" },
  option: { valid: { options: [{ label: "Yes", value: { input } }] }, broken: { options: [{ label: "Yes" }] }, problem: "item.options.0.value: must be an object" },
  connect_to_agent: { valid: {}, broken: { streaming_metadata: { id: 3 } }, problem: "item.streaming_metadata.id: must be a string" },
  image: { valid: { source: "https://example.test/a.png" }, broken: {}, problem: "item.source: must be a string" },
  video: { valid: { source: "https://example.test/a.mp4" }, broken: {}, problem: "item.source: must be a string" },
  audio: { valid: { source: "https://example.test/a.mp3" }, broken: {}, problem: "item.source: must be a string" },
  pause: { valid: { time: 500 }, broken: { streaming_metadata: "x" }, problem: "item.streaming_metadata.id: must be a string" },
  user_defined: { valid: { user_defined: { kind: "card" } }, broken: { streaming_metadata: {} }, problem: "item.streaming_metadata.id: must be a string" },
  iframe: { valid: { source: "https://example.test" }, broken: { source: null }, problem: "item.source: must be a string" },
  date: { valid: {}, broken: { streaming_metadata: [] }, problem: "item.streaming_metadata.id: must be a string" },
  inline_error: { valid: { text: "Oops" }, broken: { streaming_metadata: 1 }, problem: "item.streaming_metadata.id: must be a string" },
  card: { valid: { body: [{ response_type: "text", text: "Body" }], footer: [{ response_type: "button", button_type: "url", url: "https://example.test" }] }, broken: { body: [{ response_type: "nope" }] }, problem: "item.body.0.response_type: must be one of" },
  carousel: { valid: { items: [{ response_type: "card", body: [] }] }, broken: { items: "many" }, problem: "item.items: must be an array of items" },
  button: { valid: { button_type: "post_back", label: "Go", value: { input } }, broken: { button_type: "teleport" }, problem: "item.button_type: must be one of post_back, custom_event, show_panel, url" },
  grid: { valid: { columns: [{ width: "1" }], rows: [{ cells: [{ items: [{ response_type: "text", text: "A1" }] }] }] }, broken: { columns: [{ width: "1" }], rows: [{ cells: [{}] }] }, problem: "item.rows.0.cells.0.items: must be an array of items" },
  conversational_search: { valid: { text: "Found it", citations: [] }, broken: {}, problem: "item.text: must be a string" },
  preview_card: { valid: { workspace_id: "w1", title: "Doc" }, broken: { title: "Doc" }, problem: "item.workspace_id: must be a string" },
  system: { valid: { text: "⚙ search" }, broken: { text: ["⚙"] }, problem: "item.text: must be a string" },
};

describe("carbonItemProblems", () => {
  it("knows exactly Carbon 1.9.1's eighteen response types", () => {
    expect([...CARBON_RESPONSE_TYPES].sort()).toEqual(Object.keys(cases).sort());
  });

  it.each(Object.entries(cases))("accepts a valid %s item and names what is wrong with a broken one", (responseType, { valid, broken, problem }) => {
    expect(carbonItemProblems({ response_type: responseType, ...valid })).toEqual([]);
    const problems = carbonItemProblems({ response_type: responseType, ...broken });
    expect(problems.some((found) => found.startsWith(problem))).toBe(true);
  });

  it("rejects what is not an item, or an unknown response type", () => {
    expect(carbonItemProblems("text")).toEqual(["item: must be an object"]);
    expect(carbonItemProblems({ response_type: "thought", text: "x" })[0]).toMatch(/^item\.response_type: must be one of text, option/);
    expect(carbonItemProblems({ response_type: "toString" })[0]).toMatch(/^item\.response_type/);
  });
});
