import { Catalog, BASIC_COMPONENTS, createBasicCatalogFunctions, createFunctionImplementation, OpenUrlApi, RegexApi, type FunctionImplementation } from "@a2ui/web_core/v0_9";
import { safeRegExp } from "./safeRegExp";

/** The basic catalog's id as `@a2ui/web_core` registers it. */
export const WEB_CORE_BASIC_CATALOG_ID = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
/** The basic catalog's id as `@ag-ui/a2ui-middleware` and CopilotKit send it. */
export const MIDDLEWARE_BASIC_CATALOG_ID = "https://a2ui.org/specification/v0_9/basic_catalog.json";

/** The catalog id the model knows for `catalogId`, or nothing when it has no such catalog. */
export function knownCatalogId(catalogId: unknown): string | undefined {
  return catalogId === WEB_CORE_BASIC_CATALOG_ID || catalogId === MIDDLEWARE_BASIC_CATALOG_ID ? WEB_CORE_BASIC_CATALOG_ID : undefined;
}

export interface CatalogHooks {
  /** Opens `url` (the `openUrl` function), once the URL policy has let it through. */
  openUrl(url: string): void;
  warn(message: string): void;
}

/**
 * A2UI's basic catalog (web_core's components and functions) for one view,
 * with two functions of its own: `openUrl` goes through `hooks.openUrl`, and
 * `regex` compiles the agent's pattern with `safeRegExp` (a pattern it
 * refuses makes the check pass).
 */
export function basicCatalog(hooks: CatalogHooks): Catalog<(typeof BASIC_COMPONENTS)[number]> {
  const openUrl = createFunctionImplementation(OpenUrlApi, (args: { url: string }) => hooks.openUrl(args.url));
  const regex = createFunctionImplementation(RegexApi, (args: { value: string; pattern: string }) => safeRegExp(args.pattern, hooks.warn)?.test(args.value) ?? true);
  const replaced: Record<string, FunctionImplementation> = { openUrl, regex };
  const functions = createBasicCatalogFunctions().map((fn) => replaced[fn.name] ?? fn);
  return new Catalog(WEB_CORE_BASIC_CATALOG_ID, BASIC_COMPONENTS, functions);
}
