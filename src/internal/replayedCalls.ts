import type { ToolCallStartEvent } from "@ag-ui/core";
import { sameArguments } from "./takeFromSnapshot";
import { TextBuffer } from "./textBuffer";

/** A call as the thread held it before the run. */
export interface KnownCall {
  name: string;
  arguments: string;
}

/**
 * The calls a run announces again that the thread already answered
 * (`known`): each is held from its START until its END tells whether it is
 * the call known, with its name and arguments (a replay: nothing of it is
 * shown or kept, its result included), or a new call under a known id,
 * which the run then shows from its START.
 */
export class ReplayedCalls {
  private readonly again = new Map<string, { start: ToolCallStartEvent; arguments: TextBuffer; replay?: boolean }>();

  constructor(private readonly known: ReadonlyMap<string, KnownCall> | undefined) {}

  /** Whether `start` is held here: a call known, announced again. */
  started(start: ToolCallStartEvent): boolean {
    const held = this.again.get(start.toolCallId);
    if (held) return held.replay !== false;
    if (!this.known?.has(start.toolCallId)) return false;
    this.again.set(start.toolCallId, { start, arguments: new TextBuffer() });
    return true;
  }

  /** Whether the delta belongs to a call held here. */
  arguments(toolCallId: string, delta: string): boolean {
    const held = this.again.get(toolCallId);
    if (held?.replay === undefined) held?.arguments.append(delta);
    return held !== undefined && held.replay !== false;
  }

  /** At the call's END: `"replay"`, the call known; its START and arguments so far, a new call under a known id; undefined, no call of this class. */
  ended(toolCallId: string): "replay" | { start: ToolCallStartEvent; arguments: string } | undefined {
    const held = this.again.get(toolCallId);
    if (!held || held.replay === false) return undefined;
    if (held.replay === undefined) {
      const known = this.known!.get(toolCallId)!;
      held.replay = known.name === held.start.toolCallName && sameArguments(held.arguments.toString(), known.arguments);
      if (!held.replay) return { start: held.start, arguments: held.arguments.toString() };
    }
    return "replay";
  }

  /** Whether the call is a replay (its result too is the one known). */
  isReplay(toolCallId: string): boolean {
    return this.again.get(toolCallId)?.replay === true;
  }
}
