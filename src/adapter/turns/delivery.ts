import type { Observable } from "rxjs";
import type { StreamRun } from "../../operators/runs/splitRuns";
import { LateApprovals } from "../approvals/lateApprovals";
import type { ResolvedOptions } from "../options";
import { followOnTurn } from "./followOn";
import type { TurnDelivery } from "./message";
import { StreamTails } from "./streamTails";
import type { Turn } from "./turn";
import type { Turns } from "./turnPath";

/**
 * How the adapter's turns deliver their runs: the options, the words for a
 * failure, and what follows a run's end, which plays as turns of their own
 * (a stream's later runs, `StreamTails`; with a tool server, the approvals
 * asked for later in a run, `LateApprovals`), each delivered as any run.
 */
export class Delivery implements TurnDelivery {
  /** The later runs of streams whose turns are over. */
  readonly tails: StreamTails;
  /** With `toolClient`: the runs of ours followed on the tool server for approvals their streams did not show. */
  readonly late: LateApprovals | undefined;
  readonly finished?: (runId: string, turn: Turn) => void;

  constructor(
    readonly options: ResolvedOptions,
    readonly describeError: (error: unknown) => string | undefined,
    turns: Turns,
  ) {
    this.tails = new StreamTails((run, origin, requestId, stop) => turns.play(followOnTurn(run, origin, requestId, stop, this)));
    const { toolClient, onWarning, maxFollowedRuns } = options;
    const late = toolClient && new LateApprovals({ client: toolClient, turns, delivery: this, onWarning, maxFollowed: maxFollowedRuns });
    this.late = late;
    if (late) this.finished = (runId, turn) => late.follow(runId, turn);
  }

  readonly follow = (rest: Observable<StreamRun>, cut: () => void, turn: Turn, requestId: string | undefined): void => this.tails.follow(rest, cut, turn, requestId);

  /** A new run on the thread: no further run of an earlier stream starts. */
  readonly closeStreams = (): void => this.tails.close();

  /** Lets go of everything followed (a reset, a thread switch). */
  cutAll(): void {
    this.tails.cut();
    this.late?.cutAll();
  }

  /** Lets go of everything followed, for good (`dispose()`): a run that ends as the turns end follows nothing more. */
  dispose(): void {
    this.tails.cut();
    this.late?.stop();
  }
}
