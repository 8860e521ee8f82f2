import { DECISION_CARD_TEXT } from "../../src/renderers/cardText";
import { editedArguments } from "../../src/renderers/editedArguments";
import { deepFreeze } from "../../src/internal/deepFreeze";

describe("editedArguments", () => {
  const schema = { type: "object", properties: { title: { type: "string", minLength: 1 } }, required: ["title"], additionalProperties: false };

  it("parses the edit and checks it against the schema", () => {
    expect(editedArguments('{"title":"Roadmap"}', schema, DECISION_CARD_TEXT)).toEqual({ args: { title: "Roadmap" } });
    expect(editedArguments('{"title":""}', schema, DECISION_CARD_TEXT)).toEqual({ problem: expect.stringContaining("title") });
    expect(editedArguments("{", schema, DECISION_CARD_TEXT)).toEqual({ problem: expect.any(String) });
  });

  it("says what is wrong once per field, in plain sentences", () => {
    expect(editedArguments('{"title":"","room":"A"}', schema, DECISION_CARD_TEXT)).toEqual({
      problem: 'The arguments do not fit: title: String is too short (0 < 1); arguments: Property "room" does not match additional properties schema.',
    });
  });

  it("checks against a frozen schema, as Carbon's store and the adapter's pending interrupts hand it out, and leaves it as it was", () => {
    const frozen = deepFreeze(structuredClone(schema));
    expect(editedArguments('{"title":"Roadmap"}', frozen, DECISION_CARD_TEXT)).toEqual({ args: { title: "Roadmap" } });
    expect(frozen).toEqual(schema);
  });
});
