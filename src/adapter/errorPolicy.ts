import { asCarbonAgUiError, type CarbonAgUiError } from "../errors";

/**
 * Whether a failed turn rejects Carbon's send promise. The chat shows why a
 * turn failed (the `describeError` words, as an inline error), and a
 * rejection would make Carbon add its generic error under the person's
 * message: so a failure the chat showed resolves, unless `rejectOnError`.
 */
export class ErrorPolicy {
  /** Errors the chat has shown to the person. */
  private readonly shown = new WeakSet<object>();

  constructor(
    private readonly describe: ((error: unknown) => string | undefined) | undefined,
    private readonly onError: ((error: CarbonAgUiError) => void) | undefined,
    private readonly rejectOnError: boolean,
  ) {}

  /** The words for a failed turn, as the pipeline asks for them; remembers the errors it describes. */
  readonly describeError = (error: unknown): string | undefined => {
    const reason = this.describe?.(error);
    if (reason && typeof error === "object" && error !== null) this.shown.add(error);
    return reason;
  };

  /** Settles a turn for Carbon: resolves, or rejects with the turn's typed error when the chat did not show it. */
  async settle(turn: Promise<void>): Promise<void> {
    try {
      await turn;
    } catch (thrown) {
      const error = asCarbonAgUiError(thrown);
      this.onError?.(error);
      // The rejection may wrap what the chat showed (a plain Error from a callback becomes one of ours, with it as the cause).
      const shown = [error, error.cause].some((candidate) => typeof candidate === "object" && candidate !== null && this.shown.has(candidate));
      if (!shown || this.rejectOnError) throw error;
    }
  }
}
