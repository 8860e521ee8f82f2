import { DataContext, peekValue, type ComponentNode } from "@a2ui/web_core/v0_9";
import { urlRefusal, type UrlPolicy } from "../itemAllowlist";
import type { A2uiUserAction } from "../operators/map/a2uiSurfaces";
import { control, create } from "../renderers/controls";
import { basicCatalog } from "./a2uiCatalog";
import type { FieldChecks } from "./fieldChecks";
import { oneLine } from "./oneLine";
import { paintComponent } from "./paintComponent";
import type { PaintContext } from "./paintContext";
import { focusIn, refocus } from "./keptFocus";
import { isLifecycle, paintedLifecycle, paintLifecycle } from "./paintLifecycle";
import { notice } from "./paintNotice";
import { SurfaceEdits } from "./surfaceEdits";
import { DEFAULT_A2UI_LIMITS, limitRefusal, type A2uiLimits } from "./surfaceLimits";
import { isRecord } from "../internal/isRecord";
import { buildSurface, type ModelledSurface } from "./surfaceModel";
import { useSurfaceStyles } from "./useSurfaceStyles";

export { DEFAULT_A2UI_LIMITS, type A2uiLimits } from "./surfaceLimits";

export type A2uiSurfaceMode = "live" | "sending" | "stale";

export interface A2uiSurfaceViewOptions {
  activityId: string;
  /** A button's event action, its context's bindings resolved at click time. Called once per click while live. */
  onAction(action: A2uiUserAction): void;
  /** What was refused or skipped (a URL, a limit, an unknown component, a bad operation), one line: what and where, never the whole document. */
  onWarning?(message: string): void;
  urlPolicy?: UrlPolicy;
  limits?: Partial<A2uiLimits>;
  /** Draw `obscured` TextFields (password-style). Default false: such a field is not drawn; a notice says the form asks for a secret the chat does not collect. */
  allowObscured?: boolean;
}

export interface A2uiSurfaceView {
  /** The surface's element, classed `cagr-a2ui`. */
  element: HTMLElement;
  /**
   * The activity's content now: a lifecycle state `{ status: "building" |
   * "retrying" | "failed", attempt?, maxAttempts?, error?, errors? }` or
   * `{ a2ui_operations: [...] }` (cumulative: each snapshot repeats
   * `createSurface` and all components). Repaints in place.
   */
  show(content: Record<string, unknown>): void;
  /** live: interactive; sending: inputs and buttons disabled, an inline loading "Sending…"; stale: disabled, note "This form belongs to an earlier answer." */
  setMode(mode: A2uiSurfaceMode): void;
  dispose(): void;
}

/**
 * One A2UI v0.9 surface (an `a2ui-surface` activity's content) drawn with
 * Carbon's web components when the page has them registered, else native
 * elements with Carbon's look; `@a2ui/web_core` is the model (operations,
 * data, bindings, templates, checks).
 *
 * Each `show` builds a fresh model of the snapshot (`buildSurface`, after
 * the limits) and draws its tree (`paintComponent`); the previous model and
 * its subscriptions end. What the person entered survives repaints until an
 * action is sent (`SurfaceEdits`), and so does the field they are in.
 *
 * A button with an event action, in live mode, with every field's checks
 * passing: its context resolved against the data now, `onAction` once, then
 * the view is "sending". A failing check shows its message and sends
 * nothing. A function-call action (`openUrl`) runs here, its URL through the
 * URL policy.
 */
export function createA2uiSurfaceView(document: Document, options: A2uiSurfaceViewOptions): A2uiSurfaceView {
  const limits: A2uiLimits = { ...DEFAULT_A2UI_LIMITS, ...options.limits };
  const urlPolicy = options.urlPolicy ?? {};
  useSurfaceStyles(document);
  const element = create(document, "div", "cagr-a2ui");
  element.dataset.activityId = options.activityId;
  const body = create(document, "div", "cagr-a2ui-body");
  const status = create(document, "div", "cagr-a2ui-mode");
  element.append(body, status);

  let mode: A2uiSurfaceMode = "live";
  let modelled: ModelledSurface | undefined;
  let controls = new Set<HTMLElement>();
  let fields = new Set<FieldChecks>();
  let warned = new Set<string>();
  const edits = new SurfaceEdits();
  const warn = (message: string) => options.onWarning?.(message);
  const warnOnce = (key: string, message: string) => {
    if (warned.has(key)) return;
    warned.add(key);
    warn(message);
  };

  const catalog = basicCatalog({
    openUrl(url) {
      const refusal = urlRefusal(url, { path: "openUrl.url", item: { url } }, urlPolicy);
      if (refusal !== undefined) return warn(`openUrl was refused (${refusal}): ${oneLine(url).slice(0, 60)}`);
      document.defaultView?.open(url, "_blank", "noopener,noreferrer");
    },
    warn,
  });

  const paintMode = () => {
    const off = mode !== "live";
    for (const input of controls) {
      (input as HTMLElement & { disabled: boolean }).disabled = off;
      input.toggleAttribute("disabled", off);
    }
    if (mode === "sending") {
      const loading = control(document, "cds-inline-loading", "span", "cagr-a2ui-sending");
      loading.setAttribute("status", "active");
      loading.setAttribute("role", "status");
      loading.textContent = "Sending…";
      status.replaceChildren(loading);
    } else if (mode === "stale") status.replaceChildren(create(document, "p", "cagr-a2ui-note", "This form belongs to an earlier answer."));
    else status.replaceChildren();
  };

  const press = (node: ComponentNode) => {
    const surface = modelled?.surface;
    if (mode !== "live" || !surface) return;
    const action = surface.componentsModel.get(node.componentId)?.properties.action as Record<string, unknown> | undefined;
    if (!action) return;
    const data = new DataContext(surface, node.dataPath);
    if (!("event" in action)) {
      // A function the catalog does not have would do nothing: the person is told, beside the buttons (the host by onWarning).
      const call = (action.functionCall as { call?: unknown } | undefined)?.call;
      if (typeof call === "string" && !surface.catalog.functions.has(call)) {
        status.replaceChildren(create(document, "p", "cagr-a2ui-note", `This button does nothing here: this chat has no "${oneLine(call)}" to run.`));
        warn(`A2UI surface ${surface.id}: button ${node.componentId} calls ${oneLine(call)}, which the catalog does not have`);
        return;
      }
      data.resolveAction(action as never);
      return;
    }
    const ownChecks = peekValue(node.props).validationErrors;
    const failing = [...fields].flatMap((field) => {
      field.reveal();
      return field.failing();
    });
    if (failing.length > 0 || (Array.isArray(ownChecks) && ownChecks.length > 0)) return;
    const resolved = data.resolveAction(action as never) as { event: { name: string; context?: Record<string, unknown> } };
    const userAction: A2uiUserAction = {
      name: resolved.event.name,
      surfaceId: surface.id,
      sourceComponentId: node.componentId,
      timestamp: new Date().toISOString(),
      context: structuredClone(resolved.event.context ?? {}),
    };
    edits.forget();
    options.onAction(userAction);
    setMode("sending");
  };

  const paintContext = (surface: ModelledSurface["surface"]): PaintContext => ({
    document,
    surface,
    urlPolicy,
    allowObscured: options.allowObscured === true,
    templateItems: limits.templateItems,
    warn,
    warnOnce,
    paint: (node) => paintComponent(node, paintContext(surface)),
    control(input) {
      controls.add(input);
      return input;
    },
    field(checks) {
      fields.add(checks);
    },
    write(node, binding, value) {
      binding.set(value);
      edits.record(surface.id, new DataContext(surface, node.dataPath).nested(binding.path).path, value);
    },
    press,
  });

  /** Ends the drawn model (its tree, effects, subscriptions) and empties the body. */
  const clear = () => {
    modelled?.dispose();
    modelled = undefined;
    controls = new Set();
    fields = new Set();
    warned = new Set();
    body.replaceChildren();
  };

  /** The operations the drawn model was fed, as JSON: a snapshot that only adds to them extends the model in place. */
  let fed: string[] = [];

  /**
   * Extends the drawn model with what `operations` add to those it was fed
   * (the middleware's next cumulative snapshot: the same operations, then
   * the data): the form stays as drawn, focus and all, and the person's
   * edits are written back over the agent's data. False when they do not
   * only add, or go over a limit: then the snapshot is drawn afresh.
   */
  const extended = (operations: unknown): boolean => {
    if (!modelled || !Array.isArray(operations) || operations.length < fed.length) return false;
    const json = operations.map((operation) => JSON.stringify(operation));
    if (fed.some((earlier, at) => earlier !== json[at]) || limitRefusal(operations.filter(isRecord), limits) !== undefined) return false;
    modelled.extend(operations, fed.length);
    edits.restore(modelled.surface);
    fed = json;
    return true;
  };

  const paintOperations = (operations: unknown) => {
    if (extended(operations)) return;
    const focus = focusIn(body);
    clear();
    fed = Array.isArray(operations) ? operations.map((operation) => JSON.stringify(operation)) : [];
    const built = buildSurface(operations, catalog, limits, warn, (surface) => edits.restore(surface));
    switch (built.kind) {
      case "too-large":
        warn(built.reason);
        return body.replaceChildren(notice(document, "error", "The form is too large to show", [built.reason]));
      case "failed":
        warn(built.reason);
        return body.replaceChildren(notice(document, "error", "The form could not be built", [built.reason]));
      case "empty":
        return;
      case "ready": {
        modelled = built.modelled;
        const root = peekValue(modelled.resolver.rootNode);
        const drawn = root && paintComponent(root, paintContext(modelled.surface));
        if (drawn) body.replaceChildren(drawn);
        if (focus) refocus(body, focus);
      }
    }
  };

  function setMode(next: A2uiSurfaceMode): void {
    mode = next;
    paintMode();
  }

  /** What the view shows now, as drawn: a snapshot that draws the same (the middleware's progress counts, a repeated snapshot) changes nothing. */
  let shown: string | undefined;

  return {
    element,
    show(content) {
      const drawn = isLifecycle(content) ? JSON.stringify(paintedLifecycle(content)) : JSON.stringify(content);
      if (drawn === shown) return;
      shown = drawn;
      if (isLifecycle(content)) {
        clear();
        body.replaceChildren(...paintLifecycle(document, content));
      } else if ("a2ui_operations" in content) paintOperations(content.a2ui_operations);
      else {
        clear();
        const reason = "The activity holds neither a lifecycle state nor a2ui_operations.";
        warn(reason);
        body.replaceChildren(notice(document, "error", "The form could not be built", [reason]));
      }
      paintMode();
    },
    setMode,
    dispose() {
      clear();
      status.replaceChildren();
      element.remove();
    },
  };
}
