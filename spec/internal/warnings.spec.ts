import { EventType, type BaseEvent } from "@ag-ui/core";
import { from, lastValueFrom, toArray } from "rxjs";
import { AgUiInvalidEventError, asCarbonAgUiError } from "../../src/errors";
import { carbonItems } from "../../src/operators/map/carbonItems";
import { validateEvents } from "../../src/operators/check/validateEvents";
import { createSseRunner } from "../../src/runners/createSseRunner";
import { ev } from "../support/builders";
import { collect, runInput, startHttpServer } from "../support/runs";

/** Everything the default warnings printed, as one string. */
async function printed(work: () => Promise<unknown>): Promise<string> {
  const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
  try {
    await work();
    return warn.mock.calls.map((args) => args.map((arg) => (typeof arg === "string" ? arg : JSON.stringify(arg))).join(" ")).join("\n");
  } finally {
    warn.mockRestore();
  }
}

const secret = "private value";

/** Errors and default warnings say what failed and where, never the content that failed (issue 26). */
describe("what the default warnings print", () => {
  it("an invalid event: what is wrong with it, not the event (a messages snapshot is the whole history)", async () => {
    const snapshot = { type: EventType.MESSAGES_SNAPSHOT, messages: [{ id: "u1", role: "user", content: secret }, { id: 2, role: "user", content: secret }] } as unknown as BaseEvent;
    const output = await printed(() => lastValueFrom(from([snapshot]).pipe(validateEvents(), toArray())));
    expect(output).toBe("carbon-agui-rx: skipped an invalid event. Invalid MESSAGES_SNAPSHOT event: messages.1.id: Invalid input: expected string, received number");
  });

  it("an invalid Carbon item: its problems and their paths, not the item", async () => {
    const output = await printed(() => lastValueFrom(from([ev.custom("carbon.item", { response_type: "image", source: 7, title: secret })]).pipe(carbonItems(), toArray())));
    expect(output).toBe("carbon-agui-rx: skipped an item. Invalid Carbon item: item.source: must be a string");
  });

  it("an SSE frame that is not JSON: its size and where parsing stopped, not the frame", async () => {
    const frame = `{"type":"STATE_SNAPSHOT","snapshot":{"token":"${secret}"} oops}`;
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(`data: ${frame}\n\n`);
    });
    try {
      const output = await printed(() => collect(createSseRunner({ url: server.url })(runInput(), { signal: new AbortController().signal })));
      expect(output).toBe(`carbon-agui-rx: skipped an SSE event that is not a JSON object (${frame.length} characters): Expected ',' or '}' after property value in JSON at position 62`);
    } finally {
      await server.close();
    }
  });
});

describe("errors built from another's error", () => {
  it("keep the first line of its message, cut at 500 characters (fast-json-patch's goes on with the whole document)", () => {
    const library = new Error(`Cannot perform the operation at a path that does not exist\nname: OPERATION_PATH_UNRESOLVABLE\ntree: {"token": "${secret}"}`);
    const wrapped = asCarbonAgUiError(library);
    expect(wrapped.message).toBe("Cannot perform the operation at a path that does not exist");
    expect(wrapped.cause).toBe(library);
    expect(asCarbonAgUiError(new Error("x".repeat(10_000))).message).toBe(`${"x".repeat(500)}…`);
    expect(asCarbonAgUiError({ detail: "y".repeat(10_000) }).message.length).toBe(501);
  });

  it("an invalid event's message lists at most ten problems, each cut at 200 characters, and a quoted type at 64", () => {
    const problems = Array.from({ length: 10_000 }, (_, index) => `messages.${index}.role: Invalid input`);
    const error = new AgUiInvalidEventError("X".repeat(1_000), [`type: ${"z".repeat(1_000)}`, ...problems]);
    expect(error.message).toBe(`Invalid ${"X".repeat(64)}… event: type: ${"z".repeat(194)}…; ${problems.slice(0, 8).join("; ")}; and 9,992 more`);
    expect(error.problems).toHaveLength(10_001);
  });
});
