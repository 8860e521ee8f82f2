/**
 * The seed's adapter (`@hsb3/carbon-agui-adapter` 0.2.0, installed in
 * bench/node_modules) in the browser bench's page: bundled by rollup in
 * memory (never written to disk) as a script that sets `window.SeedAgUi`,
 * added to an open demo page, and handed to Carbon as its
 * `customSendMessage` in place of ours, through Carbon's own configuration
 * (Carbon 1.9.1 applies a changed `messaging` configuration to the chat as it
 * runs). The page is otherwise the demo's: the same bundle, the same Carbon.
 */
import commonjs from "@rollup/plugin-commonjs";
import { nodeResolve } from "@rollup/plugin-node-resolve";
import replace from "@rollup/plugin-replace";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { rollup } from "rollup";
import { SEED_ADAPTER } from "./seedAdapter";

/** The seed adapter's browser script: its package's ES entry and what that imports (its own @ag-ui/core 0.0.59 and zod), as one IIFE. */
export async function bundleSeedAdapter(): Promise<string> {
  const folder = join(__dirname, "node_modules", SEED_ADAPTER);
  if (!existsSync(join(folder, "package.json"))) throw new Error(`${SEED_ADAPTER} is not installed in bench/: run node scripts/install-subpackage.mjs bench`);
  const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { version: string; exports: { ".": { import: string } } };
  const bundle = await rollup({
    input: join(folder, manifest.exports["."].import),
    plugins: [replace({ preventAssignment: true, values: { "process.env.NODE_ENV": JSON.stringify("production") } }), nodeResolve({ browser: true }), commonjs()],
    onwarn: (warning, warn) => (warning.code === "THIS_IS_UNDEFINED" || warning.code === "CIRCULAR_DEPENDENCY" ? undefined : warn(warning)),
  });
  try {
    const { output } = await bundle.generate({ format: "iife", name: "SeedAgUi" });
    return `${output[0].code}\nwindow.SeedAgUi.version = ${JSON.stringify(manifest.version)};`;
  } finally {
    await bundle.close();
  }
}

/**
 * Adds the seed adapter to the open demo page and makes it Carbon's `customSendMessage`, with the seed's own SSE runner
 * on the page's agent (`window.AGUI_URL`), default options, as its README has a host set it up. Events it finds
 * invalid are counted in `window.seedInvalidEvents` (it skips them).
 */
export async function useSeedAdapter(page: Page, script: string): Promise<void> {
  await page.addScriptTag({ content: script });
  // A string, not a function: tsx would add its helpers to a function's text, which the page lacks.
  await page.evaluate(`(() => {
    const invalid = (window.seedInvalidEvents = []);
    const seed = new SeedAgUi.CarbonAgUiAdapter({
      run: SeedAgUi.createSseRunner({ url: window.AGUI_URL }),
      onInvalidEvent: (raw, error) => invalid.push({ raw, error }),
    });
    const chat = document.querySelector("cds-aichat-custom-element");
    chat.messaging = { ...chat.messaging, customSendMessage: seed.sendMessage };
  })()`);
}
