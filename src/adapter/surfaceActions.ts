import type { Conversation } from "../conversation";
import { AgUiSurfaceError } from "../errors";
import { isRecord } from "../internal/isRecord";
import { A2UI_SURFACE, type A2uiUserAction } from "../operators/map/a2uiSurfaces";

/**
 * Which actions on A2UI surfaces may go to the agent: one on a surface of
 * the thread, of the latest answer (no message of the person's since), not
 * while a card waits for its answer, and one at a time per surface (a double
 * click sends once).
 */
export class SurfaceActions {
  private readonly sending = new Set<string>();

  /**
   * Takes `action` for sending: the activity it acts on (`activityId`, else
   * the latest surface of the thread that created its `surfaceId`), and the
   * function to call once it is sent. Throws `AgUiSurfaceError` when it may not go.
   */
  take(conversation: Conversation, action: A2uiUserAction, activityId = surfaceOf(conversation, action.surfaceId)): { activityId: string; sent: () => void } {
    const where = activityId ?? `a2ui-surface for ${action.surfaceId}`;
    if (activityId === undefined || conversation.activities.get(activityId)?.activityType !== A2UI_SURFACE) throw new AgUiSurfaceError(`No A2UI surface '${action.surfaceId}' in this thread to act on`, where);
    if (!conversation.isActivityCurrent(activityId)) throw new AgUiSurfaceError(`Surface '${action.surfaceId}' belongs to an earlier answer: the conversation has moved on`, activityId);
    if (conversation.pendingInterrupts.length > 0) throw new AgUiSurfaceError(`Surface '${action.surfaceId}' waits: a card asks for an answer first`, activityId);
    if (this.sending.has(activityId)) throw new AgUiSurfaceError(`An action on surface '${action.surfaceId}' is already on its way`, activityId);
    this.sending.add(activityId);
    return { activityId, sent: () => this.sending.delete(activityId) };
  }
}

/** The latest A2UI surface activity of `conversation` whose operations create `surfaceId`. */
function surfaceOf(conversation: Conversation, surfaceId: string): string | undefined {
  let found: string | undefined;
  for (const activity of conversation.activities.values()) {
    if (activity.activityType !== A2UI_SURFACE) continue;
    const operations = activity.content.a2ui_operations;
    if (Array.isArray(operations) && operations.some((operation) => isRecord(operation) && isRecord(operation.createSurface) && operation.createSurface.surfaceId === surfaceId)) found = activity.messageId;
  }
  return found;
}
