/**
 * `npm run test:package`: packs carbon-agui-rx and installs the tarball in a
 * fresh app with rxjs 7.8.2, @ag-ui/client (which pins rxjs 7.8.1) and no
 * @carbon/ai-chat, then: type-checks and runs a consumer through fromAgent
 * with two rxjs copies; adds npm overrides, type-checks and runs one that
 * pipes HttpAgent.run() straight into agUiToCarbon(); requires the CommonJS build.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(__dirname, "..");
const app = mkdtempSync(join(tmpdir(), "carbon-agui-rx-consumer-"));
const env = { ...process.env, IBM_TELEMETRY_DISABLED: "true" };
const run = (command: string, args: string[], cwd = app) => execFileSync(command, args, { cwd, env, stdio: "inherit" });
const tsc = (file: string) => run(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", file]);

try {
  run("npm", ["pack", "--pack-destination", app, "--silent"], root);
  const tarball = readdirSync(app).find((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error("npm pack wrote no tarball");

  const manifest = { name: "consumer", private: true, type: "module", dependencies: {} as Record<string, string> };
  writeFileSync(join(app, "package.json"), JSON.stringify(manifest, null, 2));
  cpSync(join(root, "scripts/package-consumer"), join(app, "src"), { recursive: true });
  const tsconfig = (include: string[], outDir: string) => ({
    compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: false, types: ["node"], lib: ["ES2022", "DOM"], outDir },
    include,
  });
  writeFileSync(join(app, "tsconfig.wrapped.json"), JSON.stringify(tsconfig(["src/wrapped.ts", "src/server.ts", "src/state.ts", "src/toolClient.ts"], "out")));
  writeFileSync(join(app, "tsconfig.direct.json"), JSON.stringify(tsconfig(["src/direct.ts", "src/server.ts", "src/state.ts", "src/toolClient.ts"], "out")));

  run("npm", ["install", "--no-audit", "--no-fund", "--silent", `./${tarball}`, "rxjs@7.8.2", "@ag-ui/client@1.0.0", "@types/node@20"]);
  if (existsSync(join(app, "node_modules/@carbon/ai-chat"))) throw new Error("@carbon/ai-chat must not be installed in the consumer app");
  if (!existsSync(join(app, "node_modules/carbon-agui-rx/LICENSE"))) throw new Error("the package must carry its LICENSE");
  // npm's site resolves no relative link (no repository URL): every link of the packed README is absolute, and those into the package name a file it ships.
  const installed = join(app, "node_modules/carbon-agui-rx");
  const { version } = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as { version: string };
  const links = [...readFileSync(join(installed, "README.md"), "utf8").matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
  const relative = links.filter((link) => !/^[a-z][a-z0-9+.-]*:|^#/i.test(link));
  if (relative.length > 0) throw new Error(`the packed README has relative links, which break on npm: ${relative.join(", ")}`);
  const intoPackage = `https://unpkg.com/carbon-agui-rx@${version}/`;
  const unshipped = links.filter((link) => link.startsWith(intoPackage) && !existsSync(join(installed, link.slice(intoPackage.length).split("#")[0]!)));
  if (unshipped.length > 0) throw new Error(`the packed README links to files the package does not ship: ${unshipped.join(", ")}`);
  if (!links.some((link) => link.startsWith(intoPackage))) throw new Error("the packed README should link into the package");
  // The testing kit, the tool client and the A2UI renderer cost nothing to those who do not import them: the main bundles hold none of them.
  for (const bundle of ["index.mjs", "index.cjs"]) {
    const code = readFileSync(join(app, "node_modules/carbon-agui-rx/dist", bundle), "utf8");
    for (const name of ["TestScheduler", "CarbonRecorder", "marbleTest", "scriptedAgent", "node:http", "ToolClient", "startToolServer", "@a2ui/web_core", "createA2uiSurfaceView"]) {
      if (code.includes(name)) throw new Error(`dist/${bundle} contains ${name}, which belongs to another entry`);
    }
  }
  if (!existsSync(join(app, "node_modules/@ag-ui/client/node_modules/rxjs"))) throw new Error("expected a second rxjs under @ag-ui/client before overrides");

  console.log("tsc + run: fromAgent with two copies of rxjs");
  tsc("tsconfig.wrapped.json");
  run(process.execPath, ["out/wrapped.js"]);

  console.log("npm overrides { rxjs: $rxjs }, then tsc + run: HttpAgent.run().pipe(agUiToCarbon())");
  const withOverrides = JSON.parse(execFileSync("npm", ["pkg", "get", "dependencies"], { cwd: app, env }).toString());
  writeFileSync(join(app, "package.json"), JSON.stringify({ ...manifest, dependencies: withOverrides, overrides: { rxjs: "$rxjs" } }, null, 2));
  run("npm", ["install", "--no-audit", "--no-fund", "--silent"]);
  if (existsSync(join(app, "node_modules/@ag-ui/client/node_modules/rxjs"))) throw new Error("overrides left a second rxjs");
  tsc("tsconfig.direct.json");
  run(process.execPath, ["out/direct.js"]);

  run(process.execPath, ["src/require.cjs"]);
  console.log("test:package: ok");
} finally {
  rmSync(app, { recursive: true, force: true });
}
