import type { SubagentStartedEvent } from "@ag-ui/core";

/**
 * What each subagent invocation of a run is called wherever the chat names
 * it (its step, its calls' steps, the cards it asks): its name, numbered
 * when the name came before in the run ("researcher (2)"), after its
 * parent's for a nested one ("researcher › summariser"); the call that
 * started it reads as a handoff to it ("Handing off to writer"). Each stage
 * that names invocations keeps one, fed the run's SUBAGENT_STARTED events.
 */
export class SubagentTitles {
  private readonly titles = new Map<string, string>();
  private readonly namesSeen = new Map<string, number>();

  /** Takes an invocation's start; returns its title. */
  started({ subagentRunId, name, parentSubagentRunId }: Pick<SubagentStartedEvent, "subagentRunId" | "name" | "parentSubagentRunId">): string {
    const seen = (this.namesSeen.get(name) ?? 0) + 1;
    this.namesSeen.set(name, seen);
    const own = seen === 1 ? name : `${name} (${seen})`;
    const parent = parentSubagentRunId === undefined ? undefined : this.titles.get(parentSubagentRunId);
    const title = parent === undefined ? own : `${parent} › ${own}`;
    this.titles.set(subagentRunId, title);
    return title;
  }

  /** The title of the call that started an invocation of the run (its `parentToolCallId`): a handoff to it. */
  handoffTo(subagentRunId: string): string | undefined {
    const title = this.titles.get(subagentRunId);
    return title === undefined ? undefined : `Handing off to ${title}`;
  }

  /** The title of an invocation the run started. */
  of(subagentRunId: string | undefined): string | undefined {
    return subagentRunId === undefined ? undefined : this.titles.get(subagentRunId);
  }
}
