/**
 * The seed's adapter, `@hsb3/carbon-agui-adapter` 0.2.0, which `npm run bench`
 * times on the same events as ours. It is installed in `bench/node_modules`
 * only (see docs/dependencies.md), so it is loaded by name at run time and
 * typed here by the part of its API the bench drives: as its README has a host
 * do, `new CarbonAgUiAdapter({ run })`, then `adapter.sendMessage` as Carbon's
 * `customSendMessage`, given a Carbon-like instance whose
 * `messaging.addMessageChunk` takes the chunks.
 */
export interface SeedCarbonInstance {
  messaging: { addMessageChunk(chunk: unknown): void | Promise<void> };
}

export interface SeedAdapter {
  sendMessage(request: { id?: string; input: { text?: string } }, options: { signal?: AbortSignal }, instance: SeedCarbonInstance): Promise<void>;
}

export interface SeedAdapterModule {
  /** `run` gives a run's events; the adapter reads them with `for await`, which takes an array as well as an async iterable. */
  CarbonAgUiAdapter: new (options: { run: (input: unknown, options: { signal?: AbortSignal }) => AsyncIterable<unknown> | Iterable<unknown> }) => SeedAdapter;
}

export const SEED_ADAPTER = "@hsb3/carbon-agui-adapter";

export async function loadSeedAdapter(): Promise<SeedAdapterModule> {
  try {
    return (await import(SEED_ADAPTER)) as SeedAdapterModule;
  } catch (error) {
    throw new Error(`${SEED_ADAPTER} is not installed in bench/: run node scripts/install-subpackage.mjs bench (npm run bench does)`, { cause: error });
  }
}
