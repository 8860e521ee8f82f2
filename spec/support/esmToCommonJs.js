// Jest transform for the packages of examples/frameworks (spec/frameworks): several ship ES modules only, which
// jest cannot require on node 20. esbuild (tsx's own compiler) rewrites them as CommonJS; CommonJS files pass as
// they are. Jest caches the output, so only the first run pays.
const { transformSync } = require("esbuild");

module.exports = {
  process(source, filename) {
    if (!/^\s*(import|export)\b/m.test(source)) return { code: source };
    const { code, map } = transformSync(source, { format: "cjs", loader: "js", target: "node20", sourcefile: filename, sourcemap: "inline", logLevel: "silent" });
    return { code, map };
  },
};
