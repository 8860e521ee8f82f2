/** `text` cut to `maxLength` characters, with "…" where it was cut. */
export const clip = (text: string, maxLength: number): string => (text.length > maxLength ? `${text.slice(0, maxLength)}…` : text);

/**
 * The first line of another's error message, cut to `maxLength`: what a
 * message of ours keeps of it. Libraries go on after the first line with
 * what they were given (fast-json-patch: the operation and the whole document).
 */
export const firstLine = (message: string, maxLength: number): string => clip(message.split("\n", 1)[0] ?? "", maxLength);
