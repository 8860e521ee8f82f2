import type { Observable } from "rxjs";
import type { CarbonChatInstance } from "../../carbon";
import type { Conversation } from "../../conversation";
import { abortReason } from "../../internal/abort";
import type { Thread } from "../../thread/thread";

/**
 * One exchange with the agent: the runs one user message (or one set of
 * decisions) starts — the first, and the follow-ups after frontend tools —
 * streamed into one Carbon instance, written into the thread the turn began
 * on (its log, and the conversation its branch comes to).
 *
 * It has one abort signal. Whatever ends the turn early (Carbon's stop
 * button, its signal, a restart, `reset()`, the host's own signal) aborts
 * it, and everything the turn runs follows it: the run streaming stops where
 * it is ("Response stopped"), and no further run starts.
 *
 * ```
 * runs:    --a--b--|  --c--d--|   (a follow-up run after a frontend tool)
 * ended$:  ------x
 * chunks:  --a--(s|)              s: the stopped items and the final response; c never runs
 * ```
 */
export class Turn {
  private readonly controller = new AbortController();
  private readonly unlinks: (() => void)[] = [];
  /** Aborted once the turn must end; its reason is Carbon's `CancellationReason` (or the host's). */
  readonly signal: AbortSignal = this.controller.signal;
  /** Emits the reason once the turn has ended early (at once if it already has), then completes. */
  readonly ended$: Observable<unknown> = abortReason(this.signal);

  constructor(
    /** The thread the turn began on: it writes there, even after a reset has replaced it. */
    readonly thread: Thread,
    readonly instance: CarbonChatInstance,
    signals: readonly (AbortSignal | undefined)[] = [],
  ) {
    this.signals = signals.filter((signal): signal is AbortSignal => signal !== undefined);
    for (const signal of this.signals) this.follow(signal);
  }

  /** The signals that end it (Carbon's request signal, the host's): they go on meaning "stop" for what its stream still brings once it is over. */
  readonly signals: readonly AbortSignal[];

  /** The conversation the thread's current branch comes to. */
  get conversation(): Conversation {
    return this.thread.conversation;
  }

  get ended(): boolean {
    return this.signal.aborted;
  }

  /** Ends the turn early (no effect once it has ended). */
  end(reason: unknown): void {
    this.controller.abort(reason);
  }

  /** Lets go of the signals it follows: the turn is over. */
  close(): void {
    for (const unlink of this.unlinks.splice(0)) unlink();
  }

  private follow(signal: AbortSignal): void {
    if (signal.aborted) return this.end(signal.reason);
    const end = () => this.end(signal.reason);
    signal.addEventListener("abort", end, { once: true });
    this.unlinks.push(() => signal.removeEventListener("abort", end));
  }
}
