import { asCarbonAgUiError, type CarbonAgUiError } from "../../errors";
import type { TurnOutcome } from "./outcome";

/** Who waits on a turn: Carbon's send promise (`"unshown"`), the host's answer (`"always"`), nobody (`"never"`: a turn of the adapter's own). */
export type Settles = "unshown" | "always" | "never";

/**
 * What a turn's outcome means for the one who waits on it. A failed turn
 * reaches `onError` once, whatever kind of turn it was. The chat shows why
 * (the `describeError` words, as an inline error), and a rejection would
 * make Carbon add its generic error under the person's message: so Carbon's
 * send promise resolves on a failure the chat showed, unless
 * `rejectOnError`. A resume's promise is the host's own, and rejects on
 * every failure (the card re-arms on it). A turn the adapter starts itself
 * has nobody waiting: `onError` alone hears of its failure.
 */
export class ErrorPolicy {
  /** Errors the chat has shown to the person. */
  private readonly shown = new WeakSet<object>();

  constructor(
    private readonly describe: ((error: unknown) => string | undefined) | undefined,
    private readonly onError: (error: CarbonAgUiError) => void,
    private readonly rejectOnError: boolean,
  ) {}

  /** The words for a failed turn, as the pipeline asks for them; remembers the errors it describes. */
  readonly describeError = (error: unknown): string | undefined => {
    const reason = this.describe?.(error);
    if (reason && typeof error === "object" && error !== null) this.shown.add(error);
    return reason;
  };

  /**
   * Settles a turn: resolves, or rejects with its typed error. `rejects`:
   * `"unshown"` (Carbon's send promise) rejects only a failure the chat did
   * not show; `"always"` (a resume's) rejects every failure, and a stop that
   * kept the decisions from the agent; `"never"` (a turn of the adapter's
   * own) resolves. Anything `played` throws is a failure.
   */
  async settle(played: Promise<TurnOutcome>, rejects: Settles): Promise<void> {
    let outcome: TurnOutcome;
    try {
      outcome = await played;
    } catch (thrown) {
      outcome = { how: "failed", began: false, error: thrown };
    }
    if (outcome.how === "stopped" && outcome.notSent && rejects === "always") throw outcome.notSent;
    // A refusal is no failure: the one who asked hears it, as when it is asked for while nothing plays.
    if (outcome.how === "refused") throw outcome.error;
    if (outcome.how !== "failed") return;
    const error = asCarbonAgUiError(outcome.error);
    this.onError(error);
    if (rejects === "never") return;
    // The rejection may wrap what the chat showed (a plain Error from a callback becomes one of ours, with it as the cause).
    const shown = [error, error.cause].some((candidate) => typeof candidate === "object" && candidate !== null && this.shown.has(candidate));
    if (rejects === "always" || !shown || this.rejectOnError) throw error;
  }
}
