/** The longest pattern an agent may give a check. */
const MAX_PATTERN_LENGTH = 200;

/**
 * The agent's `pattern` compiled, or, with a warning saying why, nothing:
 * a pattern longer than 200 characters, or one that does not compile, is
 * skipped (the check it belongs to passes).
 */
export function safeRegExp(pattern: string, warn: (message: string) => void): RegExp | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    warn(`A check's pattern is ${pattern.length} characters long, more than ${MAX_PATTERN_LENGTH}: the check is skipped.`);
    return undefined;
  }
  try {
    return new RegExp(pattern);
  } catch {
    warn(`A check's pattern does not compile: the check is skipped.`);
    return undefined;
  }
}
