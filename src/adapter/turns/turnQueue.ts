import { CancellationReason, type CarbonChatInstance } from "../../carbon";
import type { Conversation } from "../../conversation";
import { Turn } from "./turn";

/**
 * The turns of one adapter: they play one after another, so two never run
 * on the thread at once (a message sent while a resume streams waits for it,
 * as Carbon's queue does for its own requests).
 */
export class TurnQueue {
  /** Turns begun and not yet over, the one playing and those waiting for it. */
  private readonly live = new Set<Turn>();
  /** The turn whose runs are playing now. */
  private playing: Turn | undefined;
  /** Settles once the last turn queued is over: the next one starts then. */
  private lastDone: Promise<unknown> = Promise.resolve();

  /** A turn on `conversation` that ends with any of `signals`. */
  begin(conversation: Conversation, instance: CarbonChatInstance, signals: readonly (AbortSignal | undefined)[]): Turn {
    const turn = new Turn(conversation, instance, signals);
    this.live.add(turn);
    return turn;
  }

  /** Plays `work` once every turn queued before `turn` is over. */
  play<T>(turn: Turn, work: () => Promise<T>): Promise<T> {
    const done = this.lastDone.then(async () => {
      this.playing = turn;
      try {
        return await work();
      } finally {
        this.playing = undefined;
        this.live.delete(turn);
        turn.close();
      }
    });
    this.lastDone = done.catch(() => undefined);
    return done;
  }

  /** Whether a turn is begun and not yet over. */
  get busy(): boolean {
    return this.live.size > 0;
  }

  /** Ends the turn playing now (Carbon's stop button). */
  stopPlaying(): void {
    this.playing?.end(CancellationReason.STOP_STREAMING);
  }

  /** Ends every turn begun, playing or waiting. */
  endAll(reason: unknown): void {
    for (const turn of this.live) turn.end(reason);
  }
}
