/**
 * The library built from a git commit, or from the working tree, into a
 * temporary directory of its own, for bench/ab.bench.ts: the tree's files
 * there (`git archive <commit>`, or the working tree's tracked and untracked
 * files that git does not ignore), the root's node_modules linked in (nothing
 * is downloaded), and that tree's own rollup.config.mjs run by rollup, as
 * `npm run build` does, for the main entry's ES module only (dist/index.mjs).
 */
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, lstatSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export const ROOT = join(__dirname, "..");

function git(args: string[]): string {
  const result = spawnSync("git", ["-C", ROOT, ...args], { encoding: "utf8", maxBuffer: 64 * 2 ** 20 });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr.trim() || result.error?.message}`);
  return result.stdout;
}

/** The commit `ref` names (any git ref: a branch, a tag, HEAD~3, a hash). */
export function resolveCommit(ref: string): string {
  const result = spawnSync("git", ["-C", ROOT, "rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`BENCH_BASE=${ref} names no commit in ${ROOT}`);
  return result.stdout.trim();
}

/** The files under `paths` where the working tree differs from `commit`, untracked ones included. */
export function changedSince(commit: string, paths: string[]): string[] {
  const changed = git(["diff", "--name-only", commit, "--", ...paths]).split("\n");
  const untracked = git(["ls-files", "--others", "--exclude-standard", "--", ...paths]).split("\n");
  return [...new Set([...changed, ...untracked].filter(Boolean))];
}

/** `commit`'s tree, written into `dir` by `git archive`. */
export function treeFromCommit(commit: string, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const result = spawnSync("sh", ["-c", 'git -C "$1" archive --format=tar "$2" | tar -x -C "$3"', "sh", ROOT, commit, dir], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git archive ${commit} into ${dir} failed: ${result.stderr.trim()}`);
}

/** The working tree as it is now (what `git add -A` would commit, not touching the index), copied into `dir`. */
export function treeFromWorkingTree(dir: string): void {
  const files = git(["ls-files", "-z", "--cached", "--others", "--exclude-standard"]).split("\0").filter(Boolean);
  for (const file of new Set(files)) {
    const from = join(ROOT, file);
    // Deleted but not yet staged; or a submodule (a directory).
    if (!existsSync(from) || lstatSync(from).isDirectory()) continue;
    const to = join(dir, file);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
  }
}

/** Keeps, of the tree's own rollup configuration, the builds that write dist/index.mjs, and of their outputs that one. */
const MAIN_ENTRY_CONFIG = `import configs from "./rollup.config.mjs";
const isMain = (output) => /(^|\\/)dist\\/index\\.mjs$/.test(output?.file ?? "");
const all = [await (typeof configs === "function" ? configs({}) : configs)].flat();
const main = all.filter((config) => [config.output].flat().some(isMain));
if (main.length === 0) throw new Error("this tree's rollup.config.mjs writes no dist/index.mjs");
export default main.map((config) => ({ ...config, output: [config.output].flat().filter(isMain) }));
`;

/** Builds the tree in `dir` (node_modules linked to the root's) and gives the path of its dist/index.mjs. */
export async function buildLibrary(dir: string): Promise<string> {
  if (!existsSync(join(dir, "rollup.config.mjs"))) throw new Error(`${dir} has no rollup.config.mjs: this bench builds trees that have one`);
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, ".bench-main-entry.rollup.config.mjs"), MAIN_ENTRY_CONFIG);
  const rollup = join(ROOT, "node_modules", "rollup", "dist", "bin", "rollup");
  const output = await new Promise<{ code: number | null; text: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [rollup, "-c", ".bench-main-entry.rollup.config.mjs"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, FORCE_COLOR: "0" } });
    let text = "";
    child.stdout.on("data", (part: Buffer) => (text += part));
    child.stderr.on("data", (part: Buffer) => (text += part));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, text }));
  });
  const built = join(dir, "dist", "index.mjs");
  if (output.code !== 0 || !existsSync(built)) throw new Error(`rollup in ${dir} failed (exit ${output.code}):\n${output.text}`);
  return built;
}
