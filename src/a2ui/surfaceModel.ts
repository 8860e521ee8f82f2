import { MessageProcessor, NodeResolver, type A2uiMessage, type Catalog, type ComponentApi, type SurfaceModel } from "@a2ui/web_core/v0_9";
import { knownCatalogId } from "./a2uiCatalog";
import { limitRefusal, type A2uiLimits } from "./surfaceLimits";
import { oneLine } from "./oneLine";
import { isRecord } from "../internal/isRecord";

/** A surface the model holds, ready to draw: its state, and its tree of resolved components. */
export interface ModelledSurface {
  surface: SurfaceModel<ComponentApi>;
  resolver: NodeResolver<ComponentApi>;
  /** Feeds `operations` from index `from` on (a cumulative snapshot's new tail) into the live model, as the first were fed. */
  extend(operations: readonly unknown[], from: number): void;
  /** Ends the model: its tree, its subscriptions, its data. */
  dispose(): void;
}

/** What a painted snapshot's operations make. */
export type SurfaceBuild =
  | { kind: "ready"; modelled: ModelledSurface }
  /** No surface with components yet. */
  | { kind: "empty" }
  /** Over a limit (`surfaceLimits`): not fed to the model. */
  | { kind: "too-large"; reason: string }
  /** Not drawable: the operations are not a list, or ask for a catalog this view lacks. */
  | { kind: "failed"; reason: string };

/** Model errors the painter reports in its own words. */
const PAINTER_REPORTED = new Set(["UNKNOWN_COMPONENT_TYPE"]);

/** An error web_core reports on a surface. */
interface ModelError {
  code?: string;
  message?: string;
  details?: unknown;
}

/**
 * A check run before the data it reads has come (the middleware paints the
 * components, then the data): web_core reports each missing argument as
 * "Required". The agent did nothing wrong; the check runs again with the data.
 */
const beforeItsData = ({ code, details }: ModelError): boolean =>
  code === "EXPRESSION_ERROR" && Array.isArray(details) && details.length > 0 && details.every((issue) => typeof issue === "object" && issue !== null && (issue as { message?: unknown }).message === "Required");

/**
 * A fresh `@a2ui/web_core` model of the operations (`a2ui_operations`), for
 * one snapshot: checked against `limits` first, then copied (web_core
 * changes what it is fed) and fed one operation at a time, each failing
 * operation skipped with a warning.
 *
 * Snapshots are cumulative: a `createSurface` for a surface already created
 * is skipped. Both ids of the basic catalog are taken. An `updateComponents`
 * web_core refuses as a whole (one component fails its schema) is fed again
 * component by component, so the others are drawn.
 *
 * `prepare` runs on the surface once its operations are in, before its tree
 * is resolved (the view puts the person's edits back there). The first
 * surface the operations create is the one drawn.
 */
export function buildSurface(
  operations: unknown,
  catalog: Catalog<ComponentApi>,
  limits: A2uiLimits,
  warn: (message: string) => void,
  prepare: (surface: SurfaceModel<ComponentApi>) => void,
): SurfaceBuild {
  if (!Array.isArray(operations)) return { kind: "failed", reason: "The surface's operations are not a list." };
  const refusal = limitRefusal(operations.filter(isRecord), limits);
  if (refusal) return { kind: "too-large", reason: refusal };
  const unknownCatalog = operations.map((operation) => (isRecord(operation) ? operation.createSurface : undefined)).find((create) => isRecord(create) && !knownCatalogId(create.catalogId));
  if (isRecord(unknownCatalog)) return { kind: "failed", reason: `The surface asks for the catalog ${oneLine(String(unknownCatalog.catalogId))}, which this chat does not have.` };

  const processor = new MessageProcessor<ComponentApi>([catalog]);
  const extend = (all: readonly unknown[], from: number) => feedOperations(processor, all.slice(from), from, warn);
  extend(operations, 0);

  const surface = [...processor.model.surfacesMap.values()][0];
  if (!surface?.componentsModel.get("root")) {
    processor.model.dispose();
    return { kind: "empty" };
  }
  prepare(surface);
  const errors = surface.onError.subscribe((error: ModelError) => {
    if (!PAINTER_REPORTED.has(String(error.code)) && !beforeItsData(error)) warn(oneLine(error.message ?? String(error.code)));
  });
  const resolver = new NodeResolver(surface, surface.catalog);
  return {
    kind: "ready",
    modelled: {
      surface,
      resolver,
      extend,
      dispose() {
        resolver.dispose();
        errors.unsubscribe();
        processor.model.dispose();
      },
    },
  };
}

/**
 * Feeds `operations` (those from `offset` on of a snapshot) to `processor`,
 * copied (web_core changes what it is fed), one at a time: a repeated `createSurface` is skipped, the catalog id
 * made web_core's, a failing operation skipped with a warning (an
 * `updateComponents` refused as a whole fed again component by component).
 */
function feedOperations(processor: MessageProcessor<ComponentApi>, operations: readonly unknown[], offset: number, warn: (message: string) => void): void {
  const feed = (message: unknown) => processor.processMessages([message as A2uiMessage]);
  (structuredClone(operations) as unknown[]).forEach((operation, index) => {
    const where = `Operation ${offset + index + 1}`;
    if (!isRecord(operation)) return warn(`${where} is not an object: skipped.`);
    const name = ["createSurface", "updateComponents", "updateDataModel", "deleteSurface"].find((key) => key in operation);
    if (!name) return warn(`${where} is none of createSurface, updateComponents, updateDataModel, deleteSurface: skipped.`);
    const payload = operation[name];
    if (isRecord(payload) && name === "createSurface") {
      if (processor.model.getSurface(String(payload.surfaceId))) return;
      payload.catalogId = knownCatalogId(payload.catalogId);
    }
    try {
      feed(operation);
    } catch (error) {
      if (name === "updateComponents" && isRecord(payload) && Array.isArray(payload.components)) return feedEach(payload.components, (component) => feed({ ...operation, updateComponents: { ...payload, components: [component] } }), warn);
      warn(`${where} (${name}) skipped: ${oneLine(reasonOf(error))}`);
    }
  });
}

/** Feeds each component alone; one web_core refuses is skipped with a warning naming it. */
function feedEach(components: unknown[], feed: (component: unknown) => void, warn: (message: string) => void): void {
  for (const component of components) {
    try {
      feed(component);
    } catch (error) {
      const id = isRecord(component) ? String(component.id) : "?";
      warn(`Component ${oneLine(id)} skipped: ${oneLine(reasonOf(error))}`);
    }
  }
}

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
