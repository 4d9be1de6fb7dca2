// The device check's upload route (POST /api/screenroom/interviews/{key}/connection-check) as an attacker would use
// it: without a key, with another candidate's key, with a body too large to be a check (announced, or streamed
// without a Content-Length). Nothing of it may be stored.
import { Readable } from "node:stream";
import { request } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { keyOf, newCandidateOf, pbUrl, world } from "../helpers";
import { countOf } from "../support";

let a: Awaited<ReturnType<typeof world>>;
let b: Awaited<ReturnType<typeof world>>;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  a = await world("attack-check-a");
  b = await world("attack-check-b");
  keyA = (await keyOf(a.candidate.id))!;
  keyB = (await keyOf(b.candidate.id))!;
});

const url = (pathKey: string) => `${pbUrl()}/api/screenroom/interviews/${encodeURIComponent(pathKey)}/connection-check`;
const post = (pathKey: string, header: string | null, body: Uint8Array<ArrayBuffer> = new Uint8Array(1000)) =>
  fetch(url(pathKey), {
    method: "POST",
    headers: { "Content-Type": "application/octet-stream", ...(header ? { "X-Candidate-Key": header } : {}) },
    body,
  });

/**
 * An oversized body with its Content-Length, on a connection of its own (`agent: false`): the server answers 413
 * before the body is sent, and a pooled connection still carrying the rest of it would hand the next test's request
 * to a server reading leftover bytes as headers (a 431 that was never the product's).
 */
function postOversized(pathKey: string, header: string, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url(pathKey),
      { method: "POST", agent: false, headers: { "X-Candidate-Key": header, "Content-Type": "application/octet-stream", "Content-Length": String(bytes) } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", (error) => (String(error).includes("EPIPE") || String(error).includes("ECONNRESET") ? resolve(413) : reject(error)));
    req.end(Buffer.alloc(bytes, 1));
  });
}

/** A body streamed in chunks with no Content-Length (Transfer-Encoding: chunked), on a connection of its own. */
function postChunked(pathKey: string, header: string, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url(pathKey), { method: "POST", agent: false, headers: { "X-Candidate-Key": header, "Content-Type": "application/octet-stream" } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", (error) => (String(error).includes("EPIPE") || String(error).includes("ECONNRESET") ? resolve(413) : reject(error)));
    const chunk = Buffer.alloc(64 * 1024, 1);
    let sent = 0;
    Readable.from(
      (function* () {
        while (sent < bytes) {
          sent += chunk.length;
          yield chunk;
        }
      })(),
    ).pipe(req);
  });
}

describe("the connection check refuses", () => {
  it("a request with no key in the header (404)", async () => {
    expect((await post(keyA, null)).status).toBe(404);
  });

  it("a key that is no candidate's (404)", async () => {
    expect((await post("x".repeat(40), "x".repeat(40))).status).toBe(404);
    expect((await post(a.candidate.id, a.candidate.id)).status).toBe(404);
  });

  it("another candidate's key, in the header or in the path (404)", async () => {
    expect((await post(keyA, keyB)).status).toBe(404);
    expect((await post(keyB, keyA)).status).toBe(404);
    // B's own check still works: the refusals above were about the pairing, not B
    expect((await post(keyB, keyB)).status).toBe(204);
  });

  it("an oversized body with its Content-Length (413), and a chunked one without (413)", async () => {
    expect(await postOversized(keyA, keyA, 4 * 1024 * 1024)).toBe(413);
    expect(await postChunked(keyA, keyA, 4 * 1024 * 1024)).toBe(413);
  });

  it("and leaves nothing stored for anyone who tried", async () => {
    const fresh = await newCandidateOf(a, "attack-check-fresh");
    const key = (await keyOf(fresh))!;
    await post(key, key, new Uint8Array(900 * 1024));
    expect(await countOf("staged_takes", "candidate = {:c}", { c: fresh })).toBe(0);
    expect(await countOf("answers", "candidate = {:c}", { c: fresh })).toBe(0);
  });
});
