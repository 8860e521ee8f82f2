import type { Message } from "@ag-ui/core";
import { defer, filter, startWith, Subject, type Observable } from "rxjs";
import { deepFreeze } from "../internal/deepFreeze";
import { applyPatchAtomically, type PatchOutcome } from "../internal/jsonPatch";

/** A running activity (ACTIVITY_SNAPSHOT / ACTIVITY_DELTA), by the message id it belongs to. */
export interface Activity {
  readonly messageId: string;
  readonly activityType: string;
  /** Frozen: each change makes a new one. */
  readonly content: Readonly<Record<string, unknown>>;
  /** The person's message the activity began in answer to (the history's last one then), if any. */
  readonly requestId?: string;
}

type ActivityMessage = Extract<Message, { role: "activity" }>;

/**
 * A thread's activities, by message id, each frozen as it changes, and
 * each change told: what A2UI surfaces and the host read. An activity is
 * tied to the person's message it began in answer to (`requestOf`, asked
 * when it is new), so a surface of an earlier answer is told apart.
 */
export class Activities {
  private readonly byId = new Map<string, Activity>();
  private readonly changes = new Subject<Activity>();

  constructor(private readonly requestOf: () => string | undefined) {}

  get all(): ReadonlyMap<string, Activity> {
    return this.byId;
  }

  /** The activity of `messageId` now (undefined while there is none), then each change of it. */
  activity$(messageId: string): Observable<Activity | undefined> {
    return defer(() =>
      this.changes.pipe(
        filter((activity) => activity.messageId === messageId),
        startWith(this.byId.get(messageId)),
      ),
    );
  }

  /** Sets an activity (ACTIVITY_SNAPSHOT). */
  set(messageId: string, activityType: string, content: Record<string, unknown>): Activity {
    return this.put({ messageId, activityType, content: structuredClone(content) });
  }

  /** An `activity` message of a history (a MESSAGES_SNAPSHOT's, a restored thread's). */
  setMessage(message: ActivityMessage): Activity {
    return this.set(message.id, message.activityType, message.content);
  }

  /** Puts back an activity as it was kept (its `requestId` included). */
  restore(activity: Activity): void {
    this.put({ ...activity, content: structuredClone(activity.content) });
  }

  /** Applies an RFC 6902 patch to an activity's content (ACTIVITY_DELTA), all or nothing; undefined when there is no such activity. */
  patch(messageId: string, activityType: string, patch: readonly unknown[]): { outcome: PatchOutcome; activity: Activity } | undefined {
    const existing = this.byId.get(messageId);
    if (!existing) return undefined;
    const outcome = applyPatchAtomically(structuredClone(existing.content), patch);
    if (outcome.error !== undefined) return { outcome, activity: existing };
    return { outcome, activity: this.put({ messageId, activityType, content: outcome.document as Record<string, unknown> }) };
  }

  /** Replaces every activity with those of a MESSAGES_SNAPSHOT, when it has any. */
  replaceWith(messages: readonly ActivityMessage[]): void {
    if (messages.length === 0) return;
    this.byId.clear();
    for (const message of messages) this.setMessage(message);
  }

  /** Keeps `activity`; one without a `requestId` keeps its earlier one, or, new, takes `requestOf()`. */
  private put(activity: Activity): Activity {
    const requestId = activity.requestId ?? this.byId.get(activity.messageId)?.requestId ?? this.requestOf();
    const frozen = deepFreeze({ ...activity, ...(requestId !== undefined && { requestId }) });
    this.byId.set(activity.messageId, frozen);
    this.changes.next(frozen);
    return frozen;
  }
}
