// `npm run bundle-report`: what the production bundle holds, by package, for the chunks a first visit loads.
//
// Builds the app with source maps into a temporary folder (dist/ is left alone), then, for each JS chunk, walks its
// source map and gives every byte of the minified output to the source file it came from; sources are grouped by
// package (node_modules/<pkg>) or by the app's own folder (src/features/interview, ...). Gzip sizes are estimated by
// compressing each group's bytes on their own, so they add up to a little more than the chunk's real gzip size.
//
//   npm run bundle-report                      every chunk, largest first, with its top groups
//   npm run bundle-report -- --chunk=index     only chunks whose file name starts with "index"
//   npm run bundle-report -- --files           list source files instead of packages
//   npm run bundle-report -- --no-build        read the temporary build of the last run again
//
// The first-visit sets (entry + the route-preload chunks of the candidate link, sign-in and company home) are
// printed at the end: the same files scripts/bench/bytes.mjs downloads in a browser, read from index.html here.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { SourceMapConsumer } from "source-map-js";

const root = new URL("..", import.meta.url).pathname;
const outDir = join(tmpdir(), "screenroom-bundle-report");
const args = process.argv.slice(2);
const chunkFilter = args.find((a) => a.startsWith("--chunk="))?.slice("--chunk=".length);
const byFile = args.includes("--files");
const top = Number(args.find((a) => a.startsWith("--top="))?.slice("--top=".length) ?? 12);

if (!args.includes("--no-build") || !existsSync(outDir)) {
  execFileSync("npx", ["vite", "build", "--sourcemap", "--outDir", outDir, "--emptyOutDir", "--logLevel", "error"], {
    cwd: root,
    stdio: "inherit",
  });
}

const assets = join(outDir, "assets");
const kb = (n) => `${(n / 1024).toFixed(1).padStart(7)} KB`;

/** The group a source belongs to: its package, or the app folder two levels down. */
function groupOf(source) {
  // sources are relative to the map's folder: make them relative to the project (node_modules may be a symlink)
  const path = relative(root, resolve(assets, source)).replace(/^(\.\.\/)+/, "");
  if (byFile) return path;
  const nm = path.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const parts = path.slice(nm + "node_modules/".length).split("/");
    const pkg = parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
    // Radix Themes and the PocketBase SDK are big: show which part of them.
    if (pkg === "@radix-ui/themes") return `${pkg}/${parts.slice(3, 5).join("/")}`;
    return pkg;
  }
  const parts = path.split("/");
  return parts.slice(0, parts[0] === "src" && parts[1] === "features" ? 3 : 2).join("/");
}

/** Bytes of the chunk's code per group, by walking the source map line by line. */
function analyse(file) {
  const code = readFileSync(join(assets, file), "utf8");
  const map = JSON.parse(readFileSync(join(assets, `${file}.map`), "utf8"));
  const consumer = new SourceMapConsumer(map);
  const lines = code.split("\n");
  const text = new Map(); // group -> pieces of code
  const add = (group, piece) => {
    if (!text.has(group)) text.set(group, []);
    text.get(group).push(piece);
  };
  let previous = null;
  consumer.eachMapping((m) => {
    if (previous && previous.generatedLine === m.generatedLine) {
      add(previous.group, lines[m.generatedLine - 1].slice(previous.generatedColumn, m.generatedColumn));
    } else if (previous) {
      add(previous.group, lines[previous.generatedLine - 1].slice(previous.generatedColumn));
    }
    previous = { generatedLine: m.generatedLine, generatedColumn: m.generatedColumn, group: m.source ? groupOf(m.source) : "(no source)" };
  });
  if (previous) add(previous.group, lines[previous.generatedLine - 1].slice(previous.generatedColumn));
  const groups = [...text].map(([group, pieces]) => {
    const joined = pieces.join("");
    return { group, raw: Buffer.byteLength(joined), gzip: gzipSync(joined).length };
  });
  groups.sort((a, b) => b.raw - a.raw);
  return { file, raw: Buffer.byteLength(code), gzip: gzipSync(code).length, groups };
}

const files = readdirSync(assets).filter((f) => f.endsWith(".js") && (!chunkFilter || f.startsWith(chunkFilter)));
const reports = files.map(analyse).sort((a, b) => b.raw - a.raw);
for (const r of reports) {
  console.log(`\n${r.file}  ${kb(r.raw)} raw  ${kb(r.gzip)} gzip`);
  for (const g of r.groups.slice(0, top)) console.log(`  ${kb(g.raw)} raw ${kb(g.gzip)} gzip  ${g.group}`);
  if (r.groups.length > top) console.log(`  ... ${r.groups.length - top} more`);
}

// First visits: the entry script and stylesheet of index.html plus what its route-preload script adds for the page.
const html = readFileSync(join(outDir, "index.html"), "utf8");
const entry = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
const table = JSON.parse(html.match(/t=(\[\[.*?\]\]);/)?.[1] ?? "[]");
const pages = { candidate: "/candidates/k3y", signIn: "/auth/sign-in", companyHome: "/companies/c0mpany/jobs" };
const size = (f) => gzipSync(readFileSync(join(assets, f))).length;
console.log("\nFirst visit (index.html's entry + route preloads; lazy imports a screen makes later are not counted):");
for (const [name, path] of Object.entries(pages)) {
  const preload = table.find(([re]) => new RegExp(re).test(path))?.[1].map((f) => f.replace(/^\/assets\//, "")) ?? [];
  const all = [...new Set([...entry, ...preload])];
  const js = all.filter((f) => f.endsWith(".js")).reduce((n, f) => n + size(f), 0);
  const css = all.filter((f) => f.endsWith(".css")).reduce((n, f) => n + size(f), 0);
  console.log(`  ${name.padEnd(12)} JS ${kb(js)}  CSS ${kb(css)} gzip  (${all.length} files)`);
}
console.log(`\nBuild with source maps: ${relative(root, outDir) || outDir}`);
