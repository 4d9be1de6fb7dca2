// POST /api/screenroom/interviews/{key}/connection-check (pocketbase/pb_hooks/interview.pb.js): the device check's
// timed upload (issue 17 point 3). The candidate (its key in the path and in X-Candidate-Key) gets 204 for up to 1 MB;
// the bytes are read and dropped: no record and no file is left behind.
import { readdirSync, existsSync } from "node:fs";
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
});
