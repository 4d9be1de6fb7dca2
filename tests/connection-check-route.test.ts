// POST /api/screenroom/interviews/{key}/connection-check (server/internal/interview): the device check's
// timed upload (issue 17 point 3). The candidate (its key in the path and in X-Candidate-Key) gets 204 for up to 1 MB;
// the bytes are read and dropped: no record and no file is left behind.
import { readdirSync, existsSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { keyOf, pbUrl, world } from "./helpers";
import { countOf } from "./support";

let a: Awaited<ReturnType<typeof world>>;
let key: string;

beforeAll(async () => {
  a = await world("connection-check");
  key = (await keyOf(a.candidate.id))!;
});

const check = (pathKey: string, body: Uint8Array<ArrayBuffer>, header: string | null = pathKey) =>
  fetch(`${pbUrl()}/api/screenroom/interviews/${encodeURIComponent(pathKey)}/connection-check`, {
    method: "POST",
    headers: { "Content-Type": "application/octet-stream", ...(header ? { "X-Candidate-Key": header } : {}) },
    body,
  });

/** Every file under the server's data folder but its databases (which change with any request's logs). */
function filesOnDisk(): string[] {
  const root = inject("pbDataDir");
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!/\.db(-wal|-shm)?$/.test(entry.name) && !/types\.d\.ts$/.test(entry.name)) out.push(path);
    }
  };
  walk(root);
  return out.sort();
}

describe("the connection check route", () => {
  it("takes 512 KB from the candidate and answers 204, storing nothing", async () => {
    const before = filesOnDisk();
    const takesBefore = await countOf("staged_takes", "candidate = {:c}", { c: a.candidate.id });
    const res = await check(key, new Uint8Array(512 * 1024).fill(7));
    expect(res.status).toBe(204);
    expect(filesOnDisk()).toEqual(before);
    expect(await countOf("staged_takes", "candidate = {:c}", { c: a.candidate.id })).toBe(takesBefore);
    expect(await countOf("answers", "candidate = {:c}", { c: a.candidate.id })).toBe(0);
  });

  it("takes exactly 1 MB", async () => {
    expect((await check(key, new Uint8Array(1024 * 1024))).status).toBe(204);
  });

  it("refuses a body over 1 MB with 413", async () => {
    expect((await check(key, new Uint8Array(1024 * 1024 + 1))).status).toBe(413);
  });

  // server/internal/platform/request_body.go: refused before its body was read, the request's connection is closed; it
  // was kept, and the unread rest of the body was read as the client's next request, which got "400 Bad Request"
  it("closes the connection of a body it refused unread, so the client's next request is not read from its rest", async () => {
    const url = new URL(pbUrl());
    const socket = connect(Number(url.port), url.hostname);
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
    socket.on("error", () => {}); // the server may close while the rest is still being written
    const closed = new Promise((resolve) => socket.on("close", resolve));
    await new Promise((resolve) => socket.on("connect", resolve));
    const size = 1024 * 1024 + 1;
    socket.write(
      `POST /api/screenroom/interviews/${key}/connection-check HTTP/1.1\r\nHost: ${url.host}\r\nX-Candidate-Key: ${key}\r\n` +
        `Content-Type: application/octet-stream\r\nContent-Length: ${size}\r\n\r\n`,
    );
    socket.write(Buffer.alloc(size));
    socket.write(`GET /api/health HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
    await closed;
    const head = received.split("\r\n\r\n")[0];
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head).toMatch(/\r\nConnection: close(\r\n|$)/i);
    expect(received).not.toContain("400 Bad Request");
    expect(received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });
});
