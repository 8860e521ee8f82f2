/**
 * Predictive state through the adapter: the state follows a predicted tool's
 * argument while it streams, the prediction goes to the next run as state,
 * and the agent's own snapshot replaces it.
 */
import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import { Subject } from "rxjs";
import { CarbonRecorder } from "carbon-agui-rx/testing";
import { CarbonAgUiAdapter } from "../../src/adapter";
import { ev } from "../support/builders";
import { waitUntil } from "../support/runs";

describe("predictive state through the adapter", () => {
  it("shows the document as it is written, keeps it for the next run, and takes the agent's own state over it", async () => {
    const inputs: RunAgentInput[] = [];
    const streams: Subject<BaseEvent>[] = [];
    const adapter = new CarbonAgUiAdapter({
      run: (input) => {
        inputs.push(input);
        const stream = new Subject<BaseEvent>();
        streams.push(stream);
        return stream;
      },
      initialState: { doc: "" },
    });
    const carbon = new CarbonRecorder();
    const first = adapter.sendMessage({ id: "u1", input: { text: "Write a haiku" } }, { signal: new AbortController().signal }, carbon);
    await waitUntil(() => streams.length === 1);
    const run = streams[0]!;
    run.next(ev.runStarted());
    run.next(ev.custom("PredictState", [{ state_key: "doc", tool: "write_document", tool_argument: "document" }]));
    run.next(ev.toolStart("c1", "write_document"));
    run.next(ev.toolArgs("c1", '{"document":"An old'));
    expect(adapter.state).toEqual({ doc: "An old" });
    run.next(ev.toolArgs("c1", ' silent pond"}'));
    expect(adapter.state).toEqual({ doc: "An old silent pond" });
    run.next(ev.toolEnd("c1"));
    run.next(ev.toolResult("c1", "written"));
    run.next(ev.runFinished());
    run.complete();
    await first;

    const second = adapter.sendMessage({ id: "u2", input: { text: "Thanks" } }, { signal: new AbortController().signal }, carbon);
    await waitUntil(() => streams.length === 2);
    const next = streams[1]!;
    expect(inputs[1]!.state).toEqual({ doc: "An old silent pond" });
    next.next(ev.runStarted());
    next.next(ev.stateSnapshot({ doc: "An old silent pond / a frog jumps in" }));
    next.next(ev.runFinished());
    next.complete();
    await second;
    expect(adapter.state).toEqual({ doc: "An old silent pond / a frog jumps in" });
  });
});
