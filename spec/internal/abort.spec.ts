import { abortReason } from "../../src/internal/abort";
import { collect } from "../support/runs";

describe("abortReason", () => {
  it("emits the reason once when the signal aborts, or at once if it already has", async () => {
    const controller = new AbortController();
    const later = collect(abortReason(controller.signal));
    controller.abort("Stop streaming");
    expect(await later).toEqual(["Stop streaming"]);
    expect(await collect(abortReason(controller.signal))).toEqual(["Stop streaming"]);
  });

  it("stops listening when unsubscribed", () => {
    const controller = new AbortController();
    const seen: unknown[] = [];
    abortReason(controller.signal).subscribe((reason) => seen.push(reason)).unsubscribe();
    controller.abort("late");
    expect(seen).toEqual([]);
  });
});
