import { animationFrameScheduler } from "rxjs";
import { renderCostMeter } from "../../src/internal/renderCost";
import { testScheduler } from "../support/marbles";

describe("renderCostMeter", () => {
  it("reports the time from a hand-over to the next animation frame, once per frame however many hand-overs", () => {
    testScheduler().run(({ animate, cold, expectObservable }) => {
      animate("        ----------x-------------------------x");
      const meter = renderCostMeter(animationFrameScheduler);
      // Hand-overs at 2 and 6 share the frame at 10 (cost 8); the one at 14 waits for the frame at 36 (cost 22).
      cold("--h---h-------h").subscribe(() => meter.handedOver());
      expectObservable(meter.cost$).toBe("----------a-------------------------b", { a: 8, b: 22 });
    });
  });

  it("drops the measurement under way and completes when stopped", () => {
    testScheduler().run(({ animate, cold, expectObservable }) => {
      animate("        ----------x");
      const meter = renderCostMeter(animationFrameScheduler);
      cold("--h").subscribe(() => meter.handedOver());
      cold("-----s").subscribe(() => meter.stop());
      cold("-------h").subscribe(() => meter.handedOver());
      expectObservable(meter.cost$).toBe("-----|");
    });
  });
});
