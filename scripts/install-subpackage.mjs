#!/usr/bin/env node
/**
 * Installs packages of this repository kept apart from the root install
 * (`examples/frameworks`: the real agents spec/frameworks runs against;
 * `bench`: the seed adapter the bench compares with) with `npm ci` when one
 * is missing or its lockfile changed since its last install:
 * `node scripts/install-subpackage.mjs examples/frameworks bench`.
 * `npm test` installs examples/frameworks (`pretest`), `npm run bench`
 * installs bench. Why apart: docs/dependencies.md.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const folders = process.argv.slice(2);
if (folders.length === 0) {
  console.error("usage: node scripts/install-subpackage.mjs <folder>… (examples/frameworks, bench)");
  process.exit(2);
}

for (const name of folders) {
  const folder = join(root, name);
  const lockfile = join(folder, "package-lock.json");
  if (!existsSync(lockfile)) {
    console.error(`${name} has no package-lock.json: it is not a package installed apart`);
    process.exit(2);
  }
  // Written after a successful install: the hash of the lockfile it installed.
  const stamp = join(folder, "node_modules", ".installed-lock-sha256");
  const wanted = createHash("sha256").update(readFileSync(lockfile)).digest("hex");
  if (existsSync(stamp) && readFileSync(stamp, "utf8").trim() === wanted) continue;

  const { description } = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
  console.log(`Installing ${name}: ${description}`);
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
      LANGCHAIN_TRACING_V2: "false",
      LANGSMITH_TRACING: "false",
      LANGGRAPH_CLI_NO_ANALYTICS: "1",
    },
  });
  if (result.status !== 0) {
    console.error(`npm ci --prefix ${name} failed (${result.error?.message ?? `exit ${result.status}`})`);
    process.exit(result.status ?? 1);
  }
  writeFileSync(stamp, `${wanted}\n`);
  console.log(`${name} installed in ${Math.round((Date.now() - started) / 1000)} s`);
}
