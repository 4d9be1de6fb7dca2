// server/internal/platform/static.go: the build's hashed assets come gzip-compressed and cached for a year (issue 8), a missing
// asset is a plain 404 that no cache keeps, and index.html with the SPA fallback stays on PocketBase's own route.
// Runs its own PocketBase: the shared one of the integration suites serves an empty public dir.
import { get, type IncomingHttpHeaders } from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startPocketBase } from "../scripts/lib/pocketbase.mjs";

const script = `export const answer = ${JSON.stringify("x".repeat(4000))};\n`;
let dataDir: string;
let server: { url: string; stop: () => Promise<void> };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "screenroom-static-"));
  const publicDir = join(dataDir, "public");
  mkdirSync(join(publicDir, "assets"), { recursive: true });
  writeFileSync(join(publicDir, "index.html"), "<!doctype html><title>Screenroom</title>");
  writeFileSync(join(publicDir, "assets", "app-Ab12Cd34.js"), script);
  server = await startPocketBase({ port: await freePort(), dataDir: join(dataDir, "pb"), publicDir });
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The response as sent: node:http, since fetch decompresses gzip on its own. */
function raw(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    get(server.url + path, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    }).on("error", reject);
  });
}

describe("static assets", () => {
  it("sends an asset gzip-compressed to a browser that accepts gzip, cached for a year", async () => {
    const { status, headers, body } = await raw("/assets/app-Ab12Cd34.js", { "accept-encoding": "gzip, deflate, br" });
    expect(status).toBe(200);
    expect(headers["content-encoding"]).toBe("gzip");
    expect(headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(body.length).toBeLessThan(script.length / 10);
    expect(gunzipSync(body).toString()).toBe(script);
  });

  it("sends it as is to a client that does not accept gzip", async () => {
    const { status, headers, body } = await raw("/assets/app-Ab12Cd34.js");
    expect(status).toBe(200);
    expect(headers["content-encoding"]).toBeUndefined();
    expect(body.toString()).toBe(script);
  });

  it("answers a missing asset with a 404 that is not cached", async () => {
    const { status, headers } = await raw("/assets/missing-Zz99Yy88.js", { "accept-encoding": "gzip" });
    expect(status).toBe(404);
    expect(headers["cache-control"]).toBeUndefined();
  });

  it("leaves the SPA's routes to index.html, without the long cache", async () => {
    const { status, headers, body } = await raw("/candidates/abc");
    expect(status).toBe(200);
    expect(body.toString()).toContain("<title>Screenroom</title>");
    expect(headers["cache-control"]).toBeUndefined();
  });
});
