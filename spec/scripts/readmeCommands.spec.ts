import { readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(__dirname, "..", "..");
const readme = readFileSync(join(root, "README.md"), "utf8");
const { scripts } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };

/** The npm scripts the README names, in code spans and code blocks: `npm test`, `npm run <name>`. */
const named = [...new Set([...readme.matchAll(/(?:^|[\s`])(?:[A-Z_]+=\S+ )*npm (test|run [\w:-]+)/gm)].map((match) => (match[1] === "test" ? "test" : match[1]!.slice("run ".length))))];

/** What `npm run <name>` runs: its pre-script, itself, and the scripts it runs in turn. */
function expanded(name: string, seen = new Set<string>()): string {
  if (seen.has(name)) return "";
  seen.add(name);
  return [scripts[`pre${name}`], scripts[name]]
    .filter((command): command is string => command !== undefined)
    .map((command) => command + [...command.matchAll(/npm run ([\w:-]+)/g)].map((match) => `\n${expanded(match[1]!, seen)}`).join(""))
    .join("\n");
}

describe("the commands the README names, right after npm install", () => {
  it("finds the README's commands (its first lines name npm test and npm run demo)", () => {
    expect(named).toEqual(expect.arrayContaining(["test", "demo"]));
  });

  it.each(named)("npm %s is a script of package.json", (name) => {
    expect(scripts[name]).toBeDefined();
  });

  // examples/frameworks is a package of its own, which `npm install` leaves out (docs/dependencies.md): jest
  // reaches it through spec/frameworks and spec/e2e/frameworks.e2e.ts, the framework demos through serve.ts.
  it.each(named)("npm %s installs examples/frameworks first when it reaches them", (name) => {
    const runs = expanded(name);
    const reachesFrameworks = /\bjest\b|examples\/frameworks/.test(runs);
    const installsFirst = [scripts[`pre${name}`], scripts[name]].some((command) => /^(node scripts\/install-subpackage\.mjs examples\/frameworks|npm run frameworks:install)\b/.test(command ?? ""));
    expect({ name, installedWhenReached: installsFirst || !reachesFrameworks }).toEqual({ name, installedWhenReached: true });
  });
});
