import typescript from "@rollup/plugin-typescript";
import { dts } from "rollup-plugin-dts";
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
// Dependencies and peers stay imports (subpaths too): the consumer's copy of rxjs is the one we use.
const dependencies = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies });
const external = (id) => dependencies.some((name) => id === name || id.startsWith(`${name}/`));

export default [
  {
    input: "src/index.ts",
    external,
    plugins: [typescript({ tsconfig: "./tsconfig.build.json" })],
    output: [
      { file: "dist/index.mjs", format: "es", sourcemap: true },
      { file: "dist/index.cjs", format: "cjs", sourcemap: true },
    ],
  },
  {
    input: "src/index.ts",
    external,
    plugins: [dts({ tsconfig: "./tsconfig.build.json" })],
    output: [
      { file: "dist/index.d.mts", format: "es" },
      { file: "dist/index.d.cts", format: "es" },
    ],
  },
];
