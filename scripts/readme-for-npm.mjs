/**
 * npm shows the package's README.md on its site, where a relative link has
 * nothing to resolve against (the package has no repository URL yet). While
 * the package is packed (`prepack`), this rewrites README.md's relative links
 * into links to the same files in the published package on unpkg, and fails
 * if a link names a file the package does not ship; `postpack` (or the next
 * `prepack`, after a pack that failed) puts the source README back.
 *
 *   node scripts/readme-for-npm.mjs rewrite | restore
 */
import { copyFileSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const readme = join(root, "README.md");
const kept = join(root, ".README.source.md");
const { name, version, files } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

const restore = () => existsSync(kept) && renameSync(kept, readme);

/** Files npm packs whatever `files` says. */
const ALWAYS_PACKED = ["package.json", "README.md", "LICENSE"];

/** Whether `path` (relative to the package root) is among the files npm packs. */
const ships = (path) => [...ALWAYS_PACKED, ...files].some((entry) => path === entry || path.startsWith(`${entry}/`)) && existsSync(join(root, path));

function rewrite() {
  restore();
  const source = readFileSync(readme, "utf8");
  const missing = [];
  // Markdown links and images whose target is a path: not a URL, not an anchor of this page.
  const packed = source.replace(/(\]\()(?![a-z][a-z0-9+.-]*:|#)([^)\s]+)(\))/gi, (_match, open, target, close) => {
    const [path, anchor = ""] = target.split(/(?=#)/);
    const file = normalize(path).replace(/\\/g, "/");
    if (!ships(file)) missing.push(target);
    return `${open}https://unpkg.com/${name}@${version}/${file}${anchor}${close}`;
  });
  if (missing.length > 0) throw new Error(`README.md links to files the package does not ship: ${missing.join(", ")}`);
  copyFileSync(readme, kept);
  writeFileSync(readme, packed);
}

const command = process.argv[2];
if (command === "rewrite") rewrite();
else if (command === "restore") restore();
else throw new Error("usage: readme-for-npm.mjs rewrite | restore");
