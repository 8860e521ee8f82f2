// Prints the plain "N passed, N failed" line CI reads, from jest's JSON results
// plus named extra checks given as name=pass|fail. Exits 1 if anything failed
// or jest left no results (e.g. the type-check failed before jest ran).
import { existsSync, readFileSync } from "node:fs";

const [resultsFile, ...checks] = process.argv.slice(2);
let passed = 0;
let failed = 0;
if (resultsFile && existsSync(resultsFile)) {
  const results = JSON.parse(readFileSync(resultsFile, "utf8"));
  passed += results.numPassedTests;
  failed += results.numFailedTests + results.numRuntimeErrorTestSuites;
  if (results.numTotalTests === 0) failed += 1;
} else {
  console.log("jest wrote no results (did the type-check fail?)");
  failed += 1;
}
for (const check of checks) {
  const [name, status] = check.split("=");
  if (status === "pass") passed += 1;
  else {
    console.log(`${name} failed`);
    failed += 1;
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
