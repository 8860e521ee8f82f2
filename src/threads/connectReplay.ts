import { EventType, type BaseEvent } from "@ag-ui/core";

/**
 * A connect stream as read so far, by the protocol's own signals: the runs
 * recorded, each with both its ends (RUN_STARTED, then RUN_FINISHED or
 * RUN_ERROR), and the run still open, from its RUN_STARTED. An event
 * outside any run belongs to no run: it is counted (`stray`), not kept.
 *
 * ```
 * events:   s a f  s b f  s c       s: RUN_STARTED; f: RUN_FINISHED
 * recorded: [s a f] [s b f]
 * open:                    [s c]
 * ```
 */
export class ReplayReading {
  readonly recorded: BaseEvent[][] = [];
  open: BaseEvent[] | undefined;
  stray = 0;

  push(event: BaseEvent): void {
    if (event.type === EventType.RUN_STARTED) {
      // A run started again before the one open ended: what it had is a run cut short, recorded as it is.
      if (this.open) this.recorded.push(this.open);
      this.open = [event];
      return;
    }
    if (!this.open) return void this.stray++;
    this.open.push(event);
    if (event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR) {
      this.recorded.push(this.open);
      this.open = undefined;
    }
  }
}
