/** Thrown by a tool that refuses the request as asked (400 `tool-usage`); the message reaches the caller. */
export class ToolUsage extends Error {
  override name = "ToolUsage";
}

/** Thrown by a tool whose model call failed (502 with this kind, e.g. `model-unavailable`); the message reaches the caller. */
export class ToolModelError extends Error {
  override name = "ToolModelError";

  constructor(
    readonly kind: `model-${string}`,
    message: string,
  ) {
    super(message);
    if (!/^model-[a-z0-9-]+$/.test(kind)) throw new TypeError("a model error's kind is model-<lower-case words joined by dashes>");
  }
}
