// Prints the plain "N passed, N failed" line CI reads, from jest's JSON result
// files plus named extra checks given as name=pass|fail. Exits 1 if anything
// failed or a result file is missing (e.g. the type-check failed before jest ran).
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
for (const argument of process.argv.slice(2)) {
  if (argument.endsWith(".json")) {
    if (!existsSync(argument)) {
      console.log(`${argument}: no results (did the run fail before its tests?)`);
      failed += 1;
      continue;
    }
    const results = JSON.parse(readFileSync(argument, "utf8"));
    passed += results.numPassedTests;
    failed += results.numFailedTests + results.numRuntimeErrorTestSuites;
    if (results.numTotalTests === 0) failed += 1;
    continue;
  }
  const [name, status] = argument.split("=");
  if (status === "pass") passed += 1;
  else {
    console.log(`${name} failed`);
    failed += 1;
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
