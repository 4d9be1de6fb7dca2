// An S3-compatible server for the tests of object storage (issue 19): versitygw, built from its Go module like
// PocketBase (scripts/lib/pocketbase.mjs), never a downloaded binary, and run on loopback with its posix backend on a
// temp dir (each bucket a folder, each object a file under it, so a test can also look at the disk).
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ensureGoTool } from "./go-tools.mjs";
import { StackError, assertPortFree, stopChild } from "./pocketbase.mjs";

/** The pinned release (the newest the Go module proxy serves here); the binary is named by it. */
export const VERSITYGW_VERSION = "v1.8.0";
export const VERSITYGW_MODULE = "github.com/versity/versitygw";

/** Builds versitygw's cmd/versitygw at the pinned version into .cache/versitygw once (scripts/lib/go-tools.mjs). */
export function ensureS3Server({ log = console.log } = {}) {
  return ensureGoTool({ name: "versitygw", module: VERSITYGW_MODULE, command: "cmd/versitygw", version: VERSITYGW_VERSION, what: "the S3 server for tests", log });
}

async function waitForS3(url, child, output, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new StackError(`versitygw exited while starting:\n${output()}`);
    }
    try {
      // any HTTP answer (an unsigned request is refused 403) means it listens
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new StackError(`versitygw did not answer at ${url}:\n${output()}`);
}

/**
 * Starts versitygw on 127.0.0.1:`port` with the posix backend on `dataDir`, with one root account; the caller creates
 * the `bucket` (CreateBucket, tests/s3-support.ts). Returns { url, dataDir, bucket, accessKey, secret, region, env, stop }:
 * `env` is what PocketBase needs to store its files there (server/internal/platform/settings.go).
 * @param {{ port: number, dataDir: string, bucket?: string }} options
 */
export async function startS3Server({ port, dataDir, bucket = "screenroom" }) {
  const binary = ensureS3Server();
  await assertPortFree(port, "versitygw");
  const accessKey = "screenroom-test";
  const secret = "screenroom-test-secret";
  const region = "us-east-1";
  // posix backend: a bucket is a folder under dataDir/objects; objects' metadata (content type, PocketBase's
  // original file name) in a sidecar folder rather than xattrs, which a tmpfs or an overlay dir may not allow
  const objectsDir = join(dataDir, "objects");
  const metaDir = join(dataDir, "meta");
  mkdirSync(objectsDir, { recursive: true });
  mkdirSync(metaDir, { recursive: true });
  const child = spawn(
    binary,
    ["--port", `127.0.0.1:${port}`, "--access", accessKey, "--secret", secret, "--region", region, "posix", "--sidecar", metaDir, objectsDir],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let text = "";
  const collect = (chunk) => {
    text += chunk;
    if (text.length > 100_000) text = text.slice(-50_000);
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForS3(url, child, () => text);
  } catch (err) {
    child.kill("SIGKILL");
    throw err;
  }
  return {
    url,
    dataDir,
    bucket,
    accessKey,
    secret,
    region,
    output: () => text,
    env: {
      S3_ENDPOINT: url,
      S3_BUCKET: bucket,
      S3_REGION: region,
      S3_ACCESS_KEY: accessKey,
      S3_SECRET: secret,
      S3_FORCE_PATH_STYLE: "true",
    },
    stop: () => stopChild(child),
  };
}
