// Jest transform for the packages of examples/frameworks (spec/frameworks): several ship ES modules only, and some
// CommonJS ones load modules with import(), neither of which jest can run on node 20 without
// --experimental-vm-modules. esbuild (tsx's own compiler) rewrites them as CommonJS with require(); other files
// pass as they are. Jest caches the output, so only the first run pays.
const { transformSync } = require("esbuild");

module.exports = {
  process(source, filename) {
    if (!/^\s*(import|export)\b|\bimport\(/m.test(source)) return { code: source };
    const { code, map } = transformSync(source, {
      format: "cjs",
      loader: "js",
      target: "node20",
      supported: { "dynamic-import": false },
      sourcefile: filename,
      sourcemap: "inline",
      logLevel: "silent",
    });
    return { code, map };
  },
};
