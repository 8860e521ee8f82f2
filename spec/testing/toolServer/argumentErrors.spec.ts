import { startToolServer, type ToolServer } from "../../../src/testing/toolServer";
import { ALICE, as } from "./support";

const SECRET = "Pa55-w0rd-секрет";

const schema = {
  type: "object",
  $defs: { code: { type: "string", pattern: "^[A-Z]{3}$" } },
  properties: {
    name: { type: "string", minLength: 2, maxLength: 4 },
    count: { type: "integer", minimum: 1, exclusiveMaximum: 10, multipleOf: 2 },
    mode: { enum: ["fast", "safe"] },
    version: { const: 2 },
    code: { $ref: "#/$defs/code" },
    tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 2, uniqueItems: true },
    nested: { type: "object", properties: { "a/b~c": { type: "boolean" } }, required: ["must~have"] },
    either: { anyOf: [{ type: "number" }, { type: "boolean" }] },
    email: { type: "string", format: "email" },
    card: { type: "string" },
    cvc: { type: "string" },
  },
  dependentRequired: { card: ["cvc"] },
  required: ["name"],
  additionalProperties: false,
};

let server: ToolServer;
beforeAll(async () => {
  server = await startToolServer({ tools: [{ name: "form", description: "Checks a form.", inputSchema: schema, run: () => ({ ok: true }) }] });
});
afterAll(() => server.close());

const errorsFor = async (args: object) => {
  const reply = await as(server, ALICE).invoke("form", { arguments: args });
  expect(reply.status).toBe(422);
  expect(JSON.stringify(reply.body)).not.toContain(SECRET);
  return reply.body.errors as { path: string; message: string }[];
};

describe("reference tool server: tool-args-invalid messages", () => {
  it("says, per keyword, what the schema wants, in words built from the schema alone", async () => {
    const errors = await errorsFor({
      count: 11.5,
      mode: SECRET,
      version: SECRET,
      code: SECRET,
      tags: [SECRET, SECRET, SECRET],
      nested: { "a/b~c": SECRET },
      either: SECRET,
      email: SECRET,
      card: SECRET,
      extra: SECRET,
    });
    const expected = [
      { path: "/name", message: "is required" },
      { path: "/count", message: "must be integer" },
      { path: "/count", message: "must be < 10" },
      { path: "/count", message: "must be a multiple of 2" },
      { path: "/mode", message: 'must be one of ["fast","safe"]' },
      { path: "/version", message: "must be 2" },
      { path: "/code", message: "must match the pattern ^[A-Z]{3}$" },
      { path: "/tags", message: "must have at most 2 items" },
      { path: "/tags", message: "must not contain duplicate items" },
      { path: "/nested/must~0have", message: "is required" },
      { path: "/nested/a~1b~0c", message: "must be boolean" },
      { path: "/either", message: "must match at least one of the allowed schemas" },
      { path: "/email", message: "must be a valid email" },
      { path: "/cvc", message: 'is required when "card" is present' },
    ];
    // A property the schema does not allow is named by its path: a key says where, not what was sent.
    for (const error of [...expected, { path: "/extra", message: "is not allowed" }]) expect(errors).toContainEqual(error);
    expect(errors).toHaveLength(expected.length + 1);
  });

  it("reports bounds from below too", async () => {
    const errors = await errorsFor({ name: "x", count: 0, tags: [] });
    expect(errors).toEqual(
      expect.arrayContaining([
        { path: "/name", message: "must have at least 2 characters" },
        { path: "/count", message: "must be >= 1" },
        { path: "/tags", message: "must have at least 1 items" },
      ]),
    );
  });

  it("accepts arguments that satisfy the schema", async () => {
    const reply = await as(server, ALICE).invoke("form", { arguments: { name: "Ada", count: 4, code: "ABC", card: "x", cvc: "y" } });
    expect(reply.body.result).toEqual({ ok: true });
  });
});
