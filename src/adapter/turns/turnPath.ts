import { concatMap, defer, filter, from, Subject } from "rxjs";
import { CancellationReason, type CarbonChatInstance } from "../../carbon";
import type { Thread } from "../../thread/thread";
import type { ErrorPolicy, Settles } from "./errorPolicy";
import type { TurnOutcome } from "./outcome";
import { Turn } from "./turn";

/**
 * A turn to play, as every kind of turn describes itself: a message, a
 * resume, a regenerate, a surface action, a run rejoined after a reload,
 * the continuation after an approval decided elsewhere, a later run of a
 * stream, a card that came late.
 */
export interface TurnPlan {
  /** Where it streams. */
  instance: CarbonChatInstance;
  /** Signals that end it early too (Carbon's request signal, the host's). */
  signals?: readonly (AbortSignal | undefined)[];
  /** Plays its runs when its time comes; resolves with what it came to (a throw is a failure). */
  play(turn: Turn): Promise<TurnOutcome>;
  /** Who waits on it (see `ErrorPolicy.settle`). */
  settles: Settles;
}

/** A turn asked for, waiting for its time. */
interface Intent {
  turn: Turn;
  plan: TurnPlan;
  played: (outcome: TurnOutcome) => void;
}

/**
 * The turns of one adapter, as a stream: each turn asked for is an intent,
 * and the intents play one after another (`concatMap`), so two runs never
 * go on one thread at once (a message sent while a resume streams waits
 * for it, as Carbon's queue does for its own requests). A turn begins on
 * the thread that is current when it is asked for, and writes there; its
 * outcome settles its promise as its plan says. Stopping and ending act at
 * once, on the turn playing or on every turn begun: never queued.
 */
export class Turns {
  private readonly intents = new Subject<Intent>();
  /** Turns asked for and not yet over, the one playing and those waiting for it. */
  private readonly live = new Set<Turn>();
  private playing: Turn | undefined;
  /** Turns whose outcome is not yet settled (told to `onError`, their promise settled). */
  private readonly settling = new Set<Promise<unknown>>();

  constructor(
    private readonly deps: {
      errors: ErrorPolicy;
      /** The thread a turn begins on. */
      current: () => Thread;
      /** Carbon's restart ended a turn on `thread`. */
      restarted: (thread: Thread) => void;
    },
  ) {
    // Lives as long as the adapter: a turn asked for always plays, if only to find it was ended.
    this.intents.pipe(concatMap((intent) => defer(() => from(this.playOne(intent))))).subscribe();
  }

  /** Plays `plan` as a turn, after the turns asked for before it; settles as `plan.settles` says. */
  play(plan: TurnPlan): Promise<void> {
    const { errors, current, restarted } = this.deps;
    const turn = new Turn(current(), plan.instance, plan.signals ?? []);
    this.live.add(turn);
    turn.ended$.pipe(filter((reason) => reason === CancellationReason.CONVERSATION_RESTARTED)).subscribe(() => restarted(turn.thread));
    const played = new Promise<TurnOutcome>((resolve) => this.intents.next({ turn, plan, played: resolve }));
    const settled = errors.settle(played, plan.settles);
    const done = settled.catch(() => undefined).finally(() => this.settling.delete(done));
    this.settling.add(done);
    return settled;
  }

  /** Whether a turn is asked for and not yet over. */
  get busy(): boolean {
    return this.live.size > 0;
  }

  /** Resolves once no turn is playing, waiting or settling. */
  async idle(): Promise<void> {
    while (this.settling.size > 0) await Promise.all(this.settling);
  }

  /** Ends the turn playing now (Carbon's stop button). */
  stopPlaying(): void {
    this.playing?.end(CancellationReason.STOP_STREAMING);
  }

  /** Ends every turn asked for, playing or waiting. */
  endAll(reason: unknown): void {
    for (const turn of this.live) turn.end(reason);
  }

  private async playOne({ turn, plan, played }: Intent): Promise<void> {
    this.playing = turn;
    try {
      played(await plan.play(turn).catch((error: unknown): TurnOutcome => ({ how: "failed", began: false, error })));
    } finally {
      this.playing = undefined;
      this.live.delete(turn);
      turn.close();
    }
  }
}
