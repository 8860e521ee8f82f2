import { filter } from "rxjs";
import { CancellationReason, type CarbonChatInstance } from "../../carbon";
import type { Conversation } from "../../conversation";
import type { ErrorPolicy, Settles } from "./errorPolicy";
import type { CardFate, TurnOutcome } from "./outcome";
import type { Turn } from "./turn";
import { TurnQueue } from "./turnQueue";

/**
 * A turn to play, as every kind of turn describes itself: a message, a
 * resume, a run rejoined after a reload, the continuation after an approval
 * decided elsewhere, a later run of a stream, a card that came late.
 */
export interface TurnPlan {
  /** Where it streams. */
  instance: CarbonChatInstance;
  /** Signals that end it early too (Carbon's request signal, the host's). */
  signals?: readonly (AbortSignal | undefined)[];
  /** The person's message it answers: the transcript records it as the turn begins. */
  request?: { id: string; text: string };
  /** Plays its runs when its time comes; resolves with what it came to (a throw is a failure). */
  play(turn: Turn): Promise<TurnOutcome>;
  /** Who waits on it (see `ErrorPolicy.settle`). */
  settles: Settles;
}

/** Where a turn's lasting facts go (the adapter's threads, with `persistence` or `threads`). */
export interface TurnRecord {
  /** The person's message, as its turn begins. */
  request(conversation: Conversation, request: { id: string; text: string }): void;
  /** The cards whose answers the turn made final, from its outcome. */
  fates(conversation: Conversation, fates: readonly CardFate[]): void;
  save(conversation: Conversation): void;
}

/**
 * The one path every turn takes: begin (on the current conversation, in
 * the queue) → play → outcome → transcript → save → settle. A turn's
 * transcript records what its outcome says, never ahead of it: a card's
 * fate is written once the agent has taken the answer.
 */
export class Turns {
  private readonly queue = new TurnQueue();
  /** Turns whose outcome is not yet settled (told to `onError`, their promise settled). */
  private readonly settling = new Set<Promise<unknown>>();

  constructor(
    private readonly deps: {
      errors: ErrorPolicy;
      record: TurnRecord | undefined;
      /** The conversation a turn begins on. */
      current: () => Conversation;
      /** Carbon's restart ended a turn on `conversation`. */
      restarted: (conversation: Conversation) => void;
    },
  ) {}

  /** Plays `plan` as a turn, after the turns queued before it; settles as `plan.settles` says. */
  play(plan: TurnPlan): Promise<void> {
    const { errors, record, current, restarted } = this.deps;
    const turn = this.queue.begin(current(), plan.instance, plan.signals ?? []);
    turn.ended$.pipe(filter((reason) => reason === CancellationReason.CONVERSATION_RESTARTED)).subscribe(() => restarted(turn.conversation));
    const played = this.queue.play(turn, async () => {
      if (plan.request && !turn.ended) record?.request(turn.conversation, plan.request);
      const outcome = await plan.play(turn).catch((error: unknown): TurnOutcome => ({ how: "failed", began: false, error }));
      if (outcome.fates && outcome.fates.length > 0) record?.fates(turn.conversation, outcome.fates);
      return outcome;
    });
    const settled = errors.settle(record ? played.finally(() => record.save(turn.conversation)) : played, plan.settles);
    const done = settled.catch(() => undefined).finally(() => this.settling.delete(done));
    this.settling.add(done);
    return settled;
  }

  /** Whether a turn is begun and not yet over. */
  get busy(): boolean {
    return this.queue.busy;
  }

  /** Resolves once no turn is playing, waiting or settling. */
  async idle(): Promise<void> {
    while (this.settling.size > 0) await Promise.all(this.settling);
  }

  /** Ends the turn playing now (Carbon's stop button). */
  stopPlaying(): void {
    this.queue.stopPlaying();
  }

  /** Ends every turn begun, playing or waiting. */
  endAll(reason: unknown): void {
    this.queue.endAll(reason);
  }
}
