import { create } from "../renderers/controls";
import { oneLine } from "./oneLine";
import { notice, skeleton } from "./paintNotice";

/** The lifecycle states `@ag-ui/a2ui-middleware` sends before a surface is painted. */
export type A2uiLifecycle = { status: "building" | "retrying" | "failed"; attempt?: unknown; maxAttempts?: unknown; error?: unknown; errors?: unknown };

export const isLifecycle = (content: Record<string, unknown>): content is A2uiLifecycle => content.status === "building" || content.status === "retrying" || content.status === "failed";

/** What of a lifecycle state its drawing shows (not the middleware's progress count). */
export const paintedLifecycle = ({ status, attempt, maxAttempts, error, errors }: A2uiLifecycle): Partial<A2uiLifecycle> => ({ status, attempt, maxAttempts, error, errors });

/**
 * What a lifecycle state shows: building, a skeleton and "Building the
 * form…"; retrying, the skeleton and a warning with the attempt; failed, an
 * error with the agent's error texts (each on one line, cut to 300
 * characters).
 */
export function paintLifecycle(document: Document, state: A2uiLifecycle): HTMLElement[] {
  const building = create(document, "p", "cagr-a2ui-status-text", "Building the form…");
  building.setAttribute("role", "status");
  switch (state.status) {
    case "building":
      return [skeleton(document), building];
    case "retrying": {
      const attempt = typeof state.attempt === "number" ? ` (attempt ${state.attempt}${typeof state.maxAttempts === "number" ? ` of ${state.maxAttempts}` : ""})` : "";
      return [skeleton(document), notice(document, "warning", `Retrying${attempt}…`)];
    }
    case "failed":
      return [notice(document, "error", "The form could not be built", errorTexts(state))];
  }
}

function errorTexts(state: A2uiLifecycle): string[] {
  const errors = [state.error, ...(Array.isArray(state.errors) ? state.errors : [])].filter((error) => error !== undefined && error !== null && error !== "");
  return errors.map((error) => oneLine(typeof error === "string" ? error : JSON.stringify(error)));
}
