import type { AgUiInvalidEventError, AgUiInvalidItemError, CarbonAgUiError } from "../errors";
import { firstLine } from "./clip";

// The defaults print what failed and where, never the event or item itself (a messages snapshot is the whole
// history); the callbacks that replace them are handed it.

/** The default `onInvalidItem`: report why the item was skipped on the console and go on. */
export const warnSkippedItem = (_item: unknown, error: AgUiInvalidItemError) => console.warn(`carbon-agui-rx: skipped an item. ${error.message}`);

/** The default `onInvalidEvent`: report why the event was skipped on the console and go on. */
export const warnSkippedEvent = (_event: unknown, error: AgUiInvalidEventError) => console.warn(`carbon-agui-rx: skipped an invalid event. ${error.message}`);

/** The adapter's default `onError`: report it on the console (what failed and where, never a document or a secret). */
export const errorOnConsole = (error: CarbonAgUiError) => console.error(`carbon-agui-rx: ${error.message}`);

/** The default `onWarning`: report it on the console and go on. */
export const warnOnConsole = (warning: CarbonAgUiError) => console.warn(`carbon-agui-rx: ${warning.message}`);

/** The default `onParseError` of `createSseRunner`: the event's size and where parsing stopped, never the payload (it may be a whole state). */
export const warnUnreadableFrame = (raw: string, error: unknown) =>
  console.warn(`carbon-agui-rx: skipped an SSE event that is not a JSON object (${raw.length} characters): ${error instanceof Error ? firstLine(error.message, 200) : String(error)}`);
