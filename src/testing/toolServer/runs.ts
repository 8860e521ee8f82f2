import { EventLog, type EventStream, type LoggedEvent } from "./events";
import { Ledger } from "./ledger";

/** A run: its owner (the first principal to use it), event log, open streams, ledger and tool-call count. */
export class Run {
  owner: string | undefined;
  readonly events: EventLog;
  readonly streams = new Set<EventStream>();
  readonly ledger = new Ledger();
  toolCalls = 0;

  constructor(
    readonly id: string,
    eventLogSize: number,
  ) {
    this.events = new EventLog(eventLogSize);
  }

  /** Logs an event and sends it to every open stream; an ended run's log is sealed, so this throws. */
  emit(event: string, data: unknown): LoggedEvent {
    if (this.events.ended) throw new Error(`run ${this.id} has ended: its event log is sealed`);
    if (event === "end") throw new TypeError("end a run with endRun(runId, data)");
    const entry = this.events.append(event, data);
    for (const stream of this.streams) stream.send(entry);
    return entry;
  }

  /** What the server says of its own tool calls: dropped once the run has ended, since nobody can hear it. */
  notify(event: string, data: unknown): void {
    if (!this.events.ended) this.emit(event, data);
  }

  /** Sends `end` and closes the streams; each leaves `streams` as its response closes (a silenced one stays, for `dropEventStreams`). */
  end(data: unknown): void {
    if (this.events.ended) throw new Error(`run ${this.id} has already ended`);
    const entry = this.events.append("end", data);
    this.events.ended = true;
    for (const stream of this.streams) {
      stream.send(entry);
      stream.finish();
    }
  }
}
