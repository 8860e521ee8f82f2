import { ToolModelError, ToolUsage } from "./toolErrors";
import type { ToolServerTool } from "./types";

const object = (properties: Record<string, object>, required: string[] = []) => ({ type: "object", properties, required, additionalProperties: false });
const text = { type: "string" };

/** Sleeps `ms`, cut short when the call is aborted (timeout or server close), so no timer outlives the server. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms).unref();
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

/** The demo catalogue: one tool per outcome a client has to handle. */
export function defaultTools(): ToolServerTool[] {
  return [
    {
      name: "add",
      description: "Adds two numbers.",
      tags: ["math"],
      costUsd: 0.001,
      inputSchema: object({ a: { type: "number" }, b: { type: "number" } }, ["a", "b"]),
      run: ({ a, b }: { a: number; b: number }) => ({ sum: a + b }),
    },
    {
      name: "echo",
      description: "Returns the text it is given.",
      tags: ["util"],
      inputSchema: object({ text }, ["text"]),
      run: ({ text }: { text: string }) => ({ text }),
    },
    {
      name: "send_email",
      description: "Sends an e-mail once a reviewer approves it.",
      tags: ["email"],
      approval: "required",
      inputSchema: object({ to: text, subject: text, cc: text }, ["to"]),
      run: ({ to, cc }: { to: string; cc?: string }) => ({ sent: true, to, cc: cc ?? null }),
    },
    {
      name: "wipe_disk",
      description: "Erases a disk. Nobody may run it.",
      tags: ["system"],
      approval: "deny",
      inputSchema: object({ device: text }),
      run: () => ({ wiped: true }),
    },
    {
      name: "slow",
      description: "Waits the given number of milliseconds.",
      tags: ["test"],
      inputSchema: object({ ms: { type: "number", minimum: 0, maximum: 60_000 } }, ["ms"]),
      run: async ({ ms }: { ms: number }, { signal }) => (await sleep(ms, signal), { slept: ms }),
    },
    {
      name: "explode",
      description: "Always throws an unexpected error.",
      tags: ["test"],
      inputSchema: object({}),
      run: () => {
        throw new Error("kaboom: this message stays on the server");
      },
    },
    {
      name: "flaky_model",
      description: "Always fails as if its model were down.",
      tags: ["test"],
      inputSchema: object({ prompt: text }),
      run: () => {
        throw new ToolModelError("model-unavailable", "The model behind flaky_model is not available");
      },
    },
    {
      name: "strict",
      description: "Refuses every request as misuse.",
      tags: ["test"],
      inputSchema: object({ query: text }),
      run: () => {
        throw new ToolUsage("strict accepts no request: it only shows what a tool-usage error looks like");
      },
    },
    {
      name: "guarded",
      description: "Echoes text unless a guardrail finds a destructive command in it.",
      tags: ["test"],
      inputSchema: object({ text }, ["text"]),
      guardrail: ({ text }: { text: string }) => (text.includes("rm -rf") ? "no-destructive-commands" : undefined),
      run: ({ text }: { text: string }) => ({ text }),
    },
    {
      name: "timeout",
      description: "Never finishes; times out after 50 ms.",
      tags: ["test"],
      timeoutMs: 50,
      inputSchema: object({}),
      run: () => new Promise(() => {}),
    },
    {
      name: "error_result",
      description: "Returns an error result instead of throwing.",
      tags: ["test"],
      inputSchema: object({}),
      run: () => ({ error: "the upstream service answered with an error" }),
    },
  ];
}
