import { clip } from "../internal/clip";

/** The longest text a warning or notice quotes from the agent. */
const MAX_QUOTED = 300;

/** `text` on one line, cut to 300 characters (`clip`): how the view quotes what the agent sent. */
export const oneLine = (text: string): string => clip(text.replace(/\s+/g, " ").trim(), MAX_QUOTED);
