import { NEVER } from "rxjs";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter } from "../../src/adapter";
import type { ToolServerApprovals } from "../../src/adapter/approvals/toolServer";
import { resolveOptions } from "../../src/adapter/options";
import type { CarbonAgUiError } from "../../src/errors";
import { ev } from "../support/builders";

const request = (text: string) => ({ id: `u-${text}`, input: { text }, history: {} });
const sendOptions = () => ({ signal: new AbortController().signal, silent: false });

/** A tool server that is down: every call rejects as fetch does. */
const downToolServer: ToolServerApprovals = {
  decide: () => Promise.reject(new TypeError("fetch failed")),
  getApproval: () => Promise.reject(new TypeError("fetch failed")),
  listTools: () => Promise.reject(new TypeError("fetch failed")),
  events$: () => {
    throw new TypeError("fetch failed");
  },
};

describe("the adapter's onWarning and onError: decided once, every report in one place", () => {
  let warn: jest.SpyInstance;
  let error: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    error = jest.spyOn(console, "error").mockImplementation(() => undefined);
  });
  afterEach(() => {
    warn.mockRestore();
    error.mockRestore();
  });

  it("resolves both defaults in resolveOptions: what the pipeline gets is what the adapter itself uses", () => {
    const resolved = resolveOptions({ run: () => [] });
    const pipeline = resolved.pipeline({ stop: NEVER, renderCost: NEVER, describeError: () => undefined });
    expect(resolved.onWarning).toEqual(expect.any(Function));
    expect(pipeline.onWarning).toBe(resolved.onWarning);
    const mine = (_warning: CarbonAgUiError) => undefined;
    expect(resolveOptions({ run: () => [], onWarning: mine }).pipeline({ stop: NEVER, renderCost: NEVER, describeError: () => undefined }).onWarning).toBe(mine);
  });

  it("sends the adapter's own warnings (its tool server down) where the pipeline's go: the console when onWarning is unset", async () => {
    const adapter = new CarbonAgUiAdapter({ coalesce: false, toolClient: downToolServer, run: () => [...ev.run(ev.activityDelta("a1", "plan", { op: "add", path: "/x", value: 1 }), ev.message("m1", "Hi."))] });
    await adapter.sendMessage(request("Hi"), sendOptions(), new CarbonRecorder());
    const said = warn.mock.calls.map(([message]) => String(message));
    // The pipeline's (an ACTIVITY_DELTA with no activity) and the adapter's own (the tool server's tools could not be listed).
    expect(said).toEqual(expect.arrayContaining([expect.stringContaining("ACTIVITY_DELTA"), expect.stringContaining("fetch failed")]));
    expect(said.every((message) => message.startsWith("carbon-agui-rx: "))).toBe(true);
  });

  it("sends errors nobody asked for to the console when onError is unset: a thread server's failure to list is not lost", async () => {
    const adapter = new CarbonAgUiAdapter({ coalesce: false, run: () => [], threads: { load: async () => undefined, list: () => Promise.reject(new TypeError("fetch failed")) } });
    await adapter.listThreads();
    expect(error.mock.calls.map(([message]) => String(message))).toEqual([expect.stringMatching(/^carbon-agui-rx: .*list/)]);
  });
});
