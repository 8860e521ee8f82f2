import { merge, type Observable, type Subscription } from "rxjs";
import { abortReason } from "../../internal/abort";
import { CancellationReason } from "../../carbon";
import type { StreamRun } from "../../operators/runs/splitRuns";
import type { Turn } from "./turn";

/** What a stream brings after the run its turn played, as it is followed. */
interface Tail {
  /** No further run of it starts: the person sent a message, or a new run began on the thread. */
  closing: boolean;
  /** Its runs that are begun and whose turns are not over. */
  playing: number;
  /** Aborted by Carbon's stop button: the turns of its runs end as stopped. */
  stopped: AbortController;
  subscription?: Subscription;
  /** Listens for the stop of the turn it came from. */
  stopping?: Subscription;
  cut(): void;
}

/**
 * What the streams of earlier turns bring after the run each turn played.
 * AG-UI lets one stream carry several runs, and a turn is over at its run's
 * end (Carbon's queue goes on then): each later run is a turn of its own,
 * played as it begins, after what is queued, for as long as its stream
 * lasts. No clock ends a stream: the stream ending does; the person's next
 * message, or a new run on the thread, lets the runs begun play to their
 * end and no further one start (`close`); a reset, a thread switch or
 * `dispose()` let go at once (`cut`); Carbon's stop button ends the runs
 * begun as well (`stop`).
 */
export class StreamTails {
  private readonly tails = new Set<Tail>();
  /** Hears when the last stream followed is over. */
  private readonly drained: (() => void)[] = [];

  constructor(
    /** Plays a later run of `origin`'s stream as a turn of its own, ended early by `stop` too; settles when that turn is over. */
    private readonly play: (run: StreamRun, origin: Turn, requestId: string | undefined, stop: AbortSignal) => Promise<unknown>,
  ) {}

  /** Follows `rest`, the runs of `origin`'s stream after its own; `cut` lets go of the stream (aborting its request). */
  readonly follow = (rest: Observable<StreamRun>, cut: () => void, origin: Turn, requestId: string | undefined): void => {
    const tail: Tail = {
      closing: false,
      playing: 0,
      stopped: new AbortController(),
      cut: () => {
        this.forget(tail);
        tail.subscription?.unsubscribe();
        cut();
      },
    };
    this.tails.add(tail);
    // Carbon's stop for the turn's request, even once the turn is over (pressed as its answer ended): what the stream
    // still brings is part of what was stopped.
    tail.stopping = merge(origin.ended$, ...origin.signals.map(abortReason)).subscribe((reason) => reason === CancellationReason.STOP_STREAMING && this.stopOne(tail, reason));
    tail.subscription = rest.subscribe({
      next: (run) => {
        if (tail.closing) return tail.cut();
        tail.playing++;
        void this.play(run, origin, requestId, tail.stopped.signal).finally(() => {
          tail.playing--;
          if (tail.closing && tail.playing === 0) tail.cut();
        });
      },
      complete: () => this.forget(tail),
      error: () => this.forget(tail),
    });
    // Ended while it was being followed (a stream already over, or closed meanwhile).
    if (!this.tails.has(tail) || (tail.closing && tail.playing === 0)) tail.cut();
  };

  /** Resolves once no stream is followed (at once when none is): every stream read to its end, or let go of. */
  over(): Promise<void> {
    return this.tails.size === 0 ? Promise.resolve() : new Promise((resolve) => this.drained.push(resolve));
  }

  private forget(tail: Tail): void {
    tail.stopping?.unsubscribe();
    this.tails.delete(tail);
    if (this.tails.size === 0) for (const resolve of this.drained.splice(0)) resolve();
  }

  /** No further run of any stream followed starts; the runs begun play to their end. */
  close(): void {
    for (const tail of this.tails) {
      tail.closing = true;
      if (tail.playing === 0) tail.cut();
    }
  }

  /** Lets go of every stream followed now (what plays of them stops with its own turn). */
  cut(): void {
    for (const tail of [...this.tails]) tail.cut();
  }

  /** Carbon's stop button: what the streams followed still bring is part of the answer it stops; their runs' turns end as stopped. */
  stop(reason: unknown): void {
    for (const tail of [...this.tails]) this.stopOne(tail, reason);
  }

  private stopOne(tail: Tail, reason: unknown): void {
    tail.stopped.abort(reason);
    tail.cut();
  }
}
