import type { ToolServerFault, ToolServerRoute } from "./types";

const STREAM_FAULTS = ["drop-mid-frame", "go-silent", "replay-too-much", "oversized-event", "non-json-event", "data-less-end"] as const;

/** Faults that change how one event-stream response is written. */
export type StreamFault = Extract<ToolServerFault, { type: (typeof STREAM_FAULTS)[number] }>;
/** Faults applied to a request before (or instead of) handling it normally. */
export type RequestFault = Exclude<ToolServerFault, StreamFault | { type: "refuse" }>;

const isStreamFault = (fault: ToolServerFault): fault is StreamFault => (STREAM_FAULTS as readonly string[]).includes(fault.type);

interface Queued {
  fault: ToolServerFault;
  route: ToolServerRoute | undefined;
  times: number;
}

/** Injected faults, consumed in order: each matching request (or connection, for `refuse`) takes the first that fits it. */
export class FaultQueue {
  private readonly queue: Queued[] = [];

  add(fault: ToolServerFault, options: { times?: number; route?: ToolServerRoute } = {}): void {
    const { times = 1, route } = options;
    if (!Number.isInteger(times) || times < 1) throw new RangeError("times must be a positive integer");
    if (fault.type === "refuse" && route !== undefined) throw new TypeError("a refuse fault happens before the route is known: give no route");
    if (isStreamFault(fault) && route !== undefined && route !== "events") throw new TypeError(`a ${fault.type} fault only applies to the events route`);
    this.queue.push({ fault, route: isStreamFault(fault) ? "events" : route, times });
  }

  takeRefusal(): boolean {
    return this.take((fault) => fault.type === "refuse") !== undefined;
  }

  takeRequestFault(route: ToolServerRoute): RequestFault | undefined {
    return this.take((fault, queuedRoute) => fault.type !== "refuse" && !isStreamFault(fault) && (queuedRoute ?? route) === route) as RequestFault | undefined;
  }

  takeStreamFault(): StreamFault | undefined {
    return this.take(isStreamFault) as StreamFault | undefined;
  }

  private take(matches: (fault: ToolServerFault, route: ToolServerRoute | undefined) => boolean): ToolServerFault | undefined {
    const index = this.queue.findIndex((queued) => matches(queued.fault, queued.route));
    const queued = this.queue[index];
    if (queued === undefined) return undefined;
    if (--queued.times === 0) this.queue.splice(index, 1);
    return queued.fault;
  }
}
