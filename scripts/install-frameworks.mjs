#!/usr/bin/env node
/**
 * Installs examples/frameworks (CopilotKit, Mastra and the AI SDK: the real
 * agents spec/frameworks runs against) with `npm ci` when it is missing or its
 * lockfile changed since the last install. Run before `npm test`
 * (`pretest`). It is a package of its own, apart from the root install: see
 * docs/dependencies.md.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const folder = join(dirname(fileURLToPath(import.meta.url)), "..", "examples", "frameworks");
const lockfile = join(folder, "package-lock.json");
// Written after a successful install: the hash of the lockfile it installed.
const stamp = join(folder, "node_modules", ".installed-lock-sha256");

const wanted = createHash("sha256").update(readFileSync(lockfile)).digest("hex");
if (existsSync(stamp) && readFileSync(stamp, "utf8").trim() === wanted) process.exit(0);

console.log("Installing examples/frameworks (CopilotKit, Mastra, AI SDK) for spec/frameworks…");
const started = Date.now();
const result = spawnSync("npm", ["ci", "--prefix", folder, "--no-audit", "--no-fund", "--loglevel=error"], {
  stdio: "inherit",
  env: {
    ...process.env,
    // No install-time or run-time telemetry from the frameworks (nor from @carbon/ai-chat, should it appear).
    IBM_TELEMETRY_DISABLED: "true",
    COPILOTKIT_TELEMETRY_DISABLED: "true",
    MASTRA_TELEMETRY_DISABLED: "true",
    SCARF_ANALYTICS: "false",
    DO_NOT_TRACK: "1",
  },
});
if (result.status !== 0) {
  console.error(`npm ci --prefix examples/frameworks failed (${result.error?.message ?? `exit ${result.status}`})`);
  process.exit(result.status ?? 1);
}
writeFileSync(stamp, `${wanted}\n`);
console.log(`examples/frameworks installed in ${Math.round((Date.now() - started) / 1000)} s`);
