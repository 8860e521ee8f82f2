import { isRecord } from "./isRecord";

/**
 * Whether a tool call's result says the call failed though it came as a
 * result: a JSON object with an `error` (a non-empty string or an object;
 * what `@ag-ui/mcp-apps-middleware` and many tool servers answer a failed
 * call with), or MCP's `isError: true`. Anything else is a result.
 */
export function isErrorResult(content: unknown): boolean {
  let parsed = content;
  if (typeof content === "string") {
    if (!content.trimStart().startsWith("{")) return false;
    try {
      parsed = JSON.parse(content);
    } catch {
      return false;
    }
  }
  if (!isRecord(parsed)) return false;
  const { error, isError } = parsed;
  return isError === true || (typeof error === "string" && error !== "") || isRecord(error);
}
