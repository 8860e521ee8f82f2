import { auditTime, defer, map, startWith, Subject, type Observable, type SchedulerLike } from "rxjs";
import { deepFreeze } from "../internal/deepFreeze";
import { applyPatchAtomically, type PatchOutcome } from "../internal/jsonPatch";

/**
 * The shared state of a thread, kept as a private working copy that deltas
 * change in place, at a cost that follows the delta, not the state. Readers
 * get a frozen snapshot, made when first read after a change; `state$`
 * publishes one at most once per task of `scheduler`, so a burst of deltas
 * to a large state costs one copy, not one per delta.
 */
export class SharedStateDocument {
  /** The state deltas change in place; never handed out. */
  private document: unknown;
  /** The frozen copy readers get, valid while `changedSinceSnapshot` is false. */
  private snapshot: unknown;
  private changedSinceSnapshot = true;
  private readonly changes = new Subject<void>();
  /** How many times the state changed. */
  private versionValue = 0;

  /** The state: the current snapshot at once, then the latest after each burst of changes. */
  readonly state$: Observable<unknown>;

  constructor(state: unknown, scheduler: SchedulerLike) {
    this.document = structuredClone(state);
    this.state$ = defer(() =>
      this.changes.pipe(
        auditTime(0, scheduler),
        map(() => this.state),
        startWith(this.state),
      ),
    );
  }

  /** The state now, frozen. */
  get state(): unknown {
    if (this.changedSinceSnapshot) {
      this.snapshot = deepFreeze(structuredClone(this.document));
      this.changedSinceSnapshot = false;
    }
    return this.snapshot;
  }

  /** Bumped by every change: what was decided for one version holds while it stays. */
  get version(): number {
    return this.versionValue;
  }

  /** Replaces the state (a STATE_SNAPSHOT); any JSON value. */
  replace(state: unknown): void {
    this.document = structuredClone(state);
    this.changed();
  }

  /** Applies an RFC 6902 patch (a STATE_DELTA), all or nothing; see `PatchOutcome`. */
  patch(patch: readonly unknown[]): PatchOutcome {
    const outcome = applyPatchAtomically(this.document, patch);
    this.document = outcome.document;
    if (outcome.error === undefined) this.changed();
    return outcome;
  }

  private changed(): void {
    this.versionValue++;
    this.changedSinceSnapshot = true;
    this.changes.next();
  }
}
