import type { Observable } from "rxjs";

/**
 * What the adapter asks of a tool server about its approvals: the part of the
 * tool client (`carbon-agui-rx/tool-client`) it uses, so the main entry
 * needs nothing of the tool client's code.
 */
export interface ToolServerApprovals {
  decide(approvalId: string, decision: { approved: boolean; editedArguments?: Record<string, unknown>; reason?: string }, options?: { signal?: AbortSignal }): Promise<unknown>;
  /** An approval: its status, its run, and the tool and arguments it would run with. */
  getApproval(approvalId: string, options?: { signal?: AbortSignal }): Promise<{ status: string; run_id?: string | null | undefined; tool?: string; arguments?: Record<string, unknown> }>;
  listTools(options?: { signal?: AbortSignal }): Promise<readonly { name: string; input_schema: Record<string, unknown> }[]>;
  /** The run's events: reconnects with `Last-Event-ID` and skips what the server replays; with `retry: false`, one connection only. */
  events$(runId: string, options?: { retry?: false }): Observable<{ event: string; data: unknown }>;
}

/** The tools' input schemas by name, as the tool server lists them: fetched once, when first asked for; a failure is reported and tried again next time. */
export class ToolSchemas {
  readonly byName = new Map<string, object>();
  private loading: Promise<void> | undefined;

  constructor(
    private readonly client: ToolServerApprovals,
    private readonly report: (error: unknown) => void,
  ) {}

  load(): void {
    this.loading ??= this.client.listTools().then(
      (tools) => {
        for (const tool of tools) this.byName.set(tool.name, tool.input_schema);
      },
      (error: unknown) => {
        this.loading = undefined;
        this.report(error);
      },
    );
  }
}

