// Jest transform for the packages of examples/frameworks (spec/frameworks): several ship ES modules only, and some
// CommonJS ones load modules with import(), neither of which jest can run on node 20 without
// --experimental-vm-modules. esbuild (tsx's own compiler) rewrites them as CommonJS with require(); other files
// pass as they are. @a2ui/web_core (the A2UI renderer's model) and lit, which it imports, are ES modules whose
// minified files export mid-line: they are always rewritten, as is @modelcontextprotocol/ext-apps (the MCP Apps host bridge and app SDK). Jest caches the output, so only the first run pays.
const { transformSync } = require("esbuild");

const ALWAYS_ESM = /\/node_modules\/(@a2ui|@lit|@lit-labs|lit|lit-html|lit-element|@modelcontextprotocol\/ext-apps)\//;

module.exports = {
  process(source, filename) {
    if (!ALWAYS_ESM.test(filename) && !/^\s*(import|export)\b|\bimport\(/m.test(source)) return { code: source };
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
