import type { AgUiInvalidItemError, CarbonAgUiError } from "../errors";

/** The default `onInvalidItem`: report the skipped item on the console and go on. */
export const warnSkippedItem = (item: unknown, error: AgUiInvalidItemError) => console.warn(`carbon-agui-rx: skipped an item. ${error.message}`, item);

/** The default `onWarning`: report it on the console and go on. */
export const warnOnConsole = (warning: CarbonAgUiError) => console.warn(`carbon-agui-rx: ${warning.message}`);
