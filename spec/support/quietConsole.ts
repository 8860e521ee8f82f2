/**
 * `npm test` leaves the console quiet: a spec that writes to it (a default
 * `onError` or `onWarning`, a framework's own logging) fails, naming what it
 * wrote. A spec that means to see console output (or to silence a
 * framework's) spies on it itself; a method already spied on is left to it.
 */
const written: string[] = [];
const methods = ["log", "info", "warn", "error"] as const;
let guarded: jest.SpyInstance[] = [];

beforeEach(() => {
  written.length = 0;
  guarded = methods
    .filter((method) => !jest.isMockFunction(console[method]))
    .map((method) => jest.spyOn(console, method).mockImplementation((...args: unknown[]) => void written.push(`console.${method}: ${args.map(String).join(" ").slice(0, 200)}`)));
});

afterEach(() => {
  for (const spy of guarded) spy.mockRestore();
  if (written.length > 0) throw new Error(`The spec wrote to the console (give it its own onError / onWarning, or spy on the console):\n${written.join("\n")}`);
});
