/** Tool-call arguments as the agent streamed them: parsed JSON, `{}` when empty, the raw string when they do not parse. */
export function parseToolArguments(raw: string): unknown {
  if (raw.trim() === "") return {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
