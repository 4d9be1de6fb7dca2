// What the metrics tests need besides the stack: Debian's Prometheus (the server that scrapes both endpoints in
// tests/metrics.test.ts) and prom2json, the Prometheus project's own reader of the text format (built from its Go
// module at a pinned version, like the S3 test server), through which the tests read every figure.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureSystemPackages } from "./deps.mjs";
import { ensureGoTool } from "./go-tools.mjs";
import { StackError, assertPortFree, stopChild } from "./pocketbase.mjs";

export const PROMETHEUS_BINARY = "/usr/bin/prometheus";
export const PROM2JSON_VERSION = "v1.4.2";

/** Debian's `prometheus` package, installed when missing (as root; otherwise the command to run is named). */
export function ensurePrometheus({ log = console.log } = {}) {
  ensureSystemPackages({ packages: [{ pkg: "prometheus", check: () => existsSync(PROMETHEUS_BINARY) }], log });
  return PROMETHEUS_BINARY;
}

/** prom2json built from github.com/prometheus/prom2json at PROM2JSON_VERSION into .cache/prom2json once. */
export function ensurePromJson({ log = console.log } = {}) {
  return ensureGoTool({
    name: "prom2json",
    module: "github.com/prometheus/prom2json",
    command: "cmd/prom2json",
    version: PROM2JSON_VERSION,
    what: "the Prometheus text format reader of the metrics tests",
    log,
  });
}

/**
 * The metric families of a text exposition, read by prom2json (Prometheus's own parser, expfmt): each
 * { name, type, help, metrics: [{ labels, value } | { labels, buckets, count, sum }] }. Text it cannot parse throws
 * with prom2json's message.
 * @param {string} text
 * @returns {Array<{ name: string, type: string, help: string, metrics: Array<{ labels?: Record<string, string>, value?: string, count?: string, sum?: string, buckets?: Record<string, string> }> }>}
 */
export function parseExposition(text) {
  const r = spawnSync(ensurePromJson({ log: () => {} }), [], { input: text, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new StackError(`prom2json could not parse the metrics:\n${r.stderr}`);
  const families = JSON.parse(r.stdout);
  // prom2json answers [] for some text it cannot read (an unquoted label value) rather than failing
  if (families.length === 0 && /^[^#\s]/m.test(text)) throw new StackError(`prom2json could not parse the metrics: no family read from\n${text.slice(0, 500)}`);
  return families;
}

/**
 * Starts Debian's Prometheus on 127.0.0.1:`port` with `config` (prometheus.yml's text) and its data in `dataDir`;
 * resolves once it is ready. `stop()` ends it.
 */
export async function startPrometheus({ port, config, dataDir }) {
  await assertPortFree(port, "Prometheus");
  mkdirSync(dataDir, { recursive: true });
  const configFile = join(dataDir, "prometheus.yml");
  writeFileSync(configFile, config);
  const check = spawnSync("/usr/bin/promtool", ["check", "config", configFile], { encoding: "utf8" });
  if (check.status !== 0) throw new StackError(`promtool refuses the Prometheus configuration:\n${check.stdout}${check.stderr}`);
  const child = spawn(
    PROMETHEUS_BINARY,
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${join(dataDir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=warn",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  for (const started = Date.now(); Date.now() - started < 30_000; ) {
    if (child.exitCode !== null) throw new StackError(`Prometheus exited while starting:\n${output}`);
    try {
      if ((await fetch(`${url}/-/ready`)).ok) return { url, child, output: () => output, stop: () => stopChild(child) };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stopChild(child);
  throw new StackError(`Prometheus did not become ready at ${url}:\n${output}`);
}
