// A full disk (issue 26): PocketBase's data dir on a size-limited tmpfs, filled up while a candidate answers. Storage
// exhaustion is a temporary server condition: 507 with Retry-After (never a 400, which the client takes as final),
// no answer row without its file and no file without its row, the manager's reads keep working, the server logs
// the condition once, and once space is freed the same requests store each answer exactly once, its bytes whole.
// Where mounting a tmpfs is refused, SQLite's max_page_count (SCREENROOM_DB_MAX_PAGES, read by the Go main) makes
// the database full instead, and the test says so: files then never meet a full disk, which is not the whole trial.
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { consent, fixture, keyOf, pbUrl, putPart, asCandidate, randomId, useOwnServer, world } from "./helpers";
import { admin, countOf } from "./support";

let dir: string;
let dataDir: string;
let mounted = false;
let server: Awaited<ReturnType<typeof useOwnServer>> | undefined;
let w: Awaited<ReturnType<typeof world>>;
const filler = () => join(dataDir, "filler");
const webm = () => new Uint8Array(fixture("answer.webm"));

/** Mounts a tmpfs of `mb` MB on `path`; false (with the reason printed) where this machine refuses. */
function mountTmpfs(path: string, mb: number): boolean {
  // FULL_DISK_NO_TMPFS=1 plays a machine that refuses the mount, to try the fallback
  const result = process.env.FULL_DISK_NO_TMPFS
    ? { status: 1, stderr: "FULL_DISK_NO_TMPFS is set", error: undefined }
    : spawnSync("mount", ["-t", "tmpfs", "-o", `size=${mb}m`, "tmpfs", path], { encoding: "utf8" });
  if (result.status === 0) return true;
  console.warn(
    `NOT DONE: mounting a tmpfs was refused (${(result.stderr || result.error?.message || "").trim()}); the full disk is played ` +
      "by SQLite's max_page_count, and files never meet a full disk in this run.",
  );
  return false;
}

/** Fills the disk under the data dir: writes until ENOSPC. */
function fillDisk() {
  const fd = openSync(filler(), "w");
  const block = Buffer.alloc(256 * 1024, 1);
  try {
    for (;;) writeSync(fd, block);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
  } finally {
    closeSync(fd);
  }
}

async function startServer(env: Record<string, string> = {}) {
  const again = !!server;
  server = await useOwnServer(env, { dataDir, port: server?.port });
  if (again) {
    // starting it upserts the superuser, which ends the sessions it had
    const { email, password } = inject("superuser");
    await (await admin()).collection("_superusers").authWithPassword(email, password);
  }
}

/** Full: the disk filled (tmpfs), or the database capped at the pages it has (no tmpfs). */
async function makeFull() {
  if (mounted) return fillDisk();
  await server!.stop();
  // SQLite never caps a database below its size: 1 is "no page more than it has"; its free pages are then filled
  await startServer({ SCREENROOM_DB_MAX_PAGES: "1" });
  const filler = JSON.stringify({ company: w.company.id, title: "Filler job", description: "x".repeat(5000), location: "Remote", questions: [w.video.question.id] });
  for (let i = 0; i < 5000; i++) {
    const res = await fetch(`${pbUrl()}/api/collections/jobs/records`, {
      method: "POST",
      body: filler,
      headers: { "Content-Type": "application/json", Authorization: w.manager.pb.authStore.token },
    });
    if (res.status === 507) {
      refused.database = { status: res.status, retryAfter: res.headers.get("Retry-After") };
      return;
    }
    expect(res.status).toBe(200);
  }
  throw new Error("the database never became full");
}

async function freeSpace() {
  if (mounted) return rmSync(filler(), { force: true });
  await server!.stop();
  await startServer();
}

/** POST /api/screenroom/answers as the candidate, with fetch (the SDK keeps no response headers). */
async function postAnswerRaw(candidateId: string, fields: Record<string, string | Blob>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const res = await fetch(`${pbUrl()}/api/screenroom/answers`, {
    method: "POST",
    body: form,
    headers: { "X-Candidate-Key": (await keyOf(candidateId))! },
  });
  return { status: res.status, retryAfter: res.headers.get("Retry-After"), body: (await res.json()) as { message?: string } };
}

async function putPartRaw(candidateId: string, takeId: string, offset: number, bytes: Uint8Array, question: string) {
  const res = await fetch(`${pbUrl()}/api/screenroom/takes/${takeId}/parts/${offset}?question=${question}&last=1`, {
    method: "PUT",
    body: new Blob([bytes as Uint8Array<ArrayBuffer>]),
    headers: { "X-Candidate-Key": (await keyOf(candidateId))!, "Content-Type": "application/octet-stream" },
  });
  return { status: res.status, retryAfter: res.headers.get("Retry-After") };
}

/** Every stored file of the video answers' collection: [recordId, fileName, bytes]. */
function storedVideoFiles(collectionId: string): [string, string, number][] {
  const root = join(dataDir, "storage", collectionId);
  let records: string[] = [];
  try {
    records = readdirSync(root);
  } catch {
    return [];
  }
  return records.flatMap((record) =>
    readdirSync(join(root, record))
      .filter((name) => !name.startsWith("thumbs_"))
      .map((name) => [record, name, statSync(join(root, record, name)).size] as [string, string, number]),
  );
}

const candidates: { whole: string; staged: string; part: string; text: string } = { whole: "", staged: "", part: "", text: "" };
const ids = { whole: randomId(), staged: randomId(), part: randomId() };
const refused: Record<string, { status: number; retryAfter: string | null; message?: string }> = {};
let videoCollection: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "screenroom-full-disk-"));
  dataDir = join(dir, "data");
  mkdirSync(dataDir);
  mounted = mountTmpfs(dataDir, 96);
  await startServer();
  w = await world("fulldisk");
  for (const name of Object.keys(candidates) as (keyof typeof candidates)[]) {
    candidates[name] = (await w.manager.pb.collection("candidates").create({ job: w.job.id, email: `fulldisk-${name}-${randomId()}@example.com` })).id;
    await consent(candidates[name]);
  }
  videoCollection = (await (await admin()).collections.getOne("video_answers")).id;
  // a take staged in full before the disk fills; its submit comes after
  await putPart(asCandidate(candidates.staged), ids.staged, 0, webm(), w.video.question.id, { last: "1" });

  await makeFull();
  const q = w.video.question.id;
  const whole = await postAnswerRaw(candidates.whole, { id: ids.whole, question: q, file: new File([webm()], "answer.webm", { type: "video/webm" }) });
  const staged = await postAnswerRaw(candidates.staged, { id: ids.staged, question: q, staged: "true", size: String(webm().length), fileName: "answer.webm" });
  const part = await putPartRaw(candidates.part, ids.part, 0, webm(), q);
  refused.whole = { status: whole.status, retryAfter: whole.retryAfter, message: whole.body.message };
  refused.staged = { status: staged.status, retryAfter: staged.retryAfter, message: staged.body.message };
  refused.part = part;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (mounted) spawnSync("umount", [dataDir]);
  rmSync(dir, { recursive: true, force: true });
});

describe("a full disk while candidates answer", () => {
  it("refuses every kind of answer with 507 and Retry-After, never a 400", () => {
    // without a tmpfs only the database is full, and a small row may still fit in a page it has
    const expected = mounted ? ["whole", "staged", "part"] : ["database"];
    for (const name of expected) {
      expect(refused[name], name).toMatchObject({ status: 507, retryAfter: expect.stringMatching(/^[1-9][0-9]*$/) });
    }
    for (const outcome of Object.values(refused)) expect([200, 204, 507]).toContain(outcome.status);
  });

  it("leaves no answer row without its file, no file without its row", async () => {
    for (const name of ["whole", "staged"] as const) {
      // refused: nothing stored; stored (a row that still fitted in a capped database): stored once
      expect(await countOf("answers", "candidate = {:c}", { c: candidates[name] }), name).toBe(refused[name]!.status === 200 ? 1 : 0);
    }
    const rows = await (await admin()).collection("video_answers").getFullList({ fields: "id" });
    const rowIds = new Set(rows.map((r) => r.id));
    for (const [record] of storedVideoFiles(videoCollection)) expect(rowIds.has(record), `a file of ${record} without its row`).toBe(true);
  });

  it("keeps the manager's screens readable", async () => {
    const pb = w.manager.pb;
    expect((await pb.collection("candidates").getList(1, 50, { filter: pb.filter("job = {:j}", { j: w.job.id }) })).totalItems).toBe(5);
    expect((await pb.collection("jobs").getOne(w.job.id)).id).toBe(w.job.id);
  });

  it("logs the condition once, not per request", () => {
    if (!mounted) return expect(server!.output().match(/STORAGE FULL/g)?.length ?? 0).toBeLessThanOrEqual(1);
    expect(server!.output().match(/STORAGE FULL/g)).toHaveLength(1);
  });

  it("once space is freed, the same requests store each answer once, whole", async () => {
    await freeSpace();
    // without a tmpfs, an answer whose rows still fitted in the capped database was stored then: its retry is refused
    const expected = (name: string) => (refused[name]?.status === 200 && name !== "part" ? 400 : 200);
    const q = w.video.question.id;
    const whole = await postAnswerRaw(candidates.whole, { id: ids.whole, question: q, file: new File([webm()], "answer.webm", { type: "video/webm" }) });
    expect(whole.status).toBe(expected("whole"));
    const part = await putPartRaw(candidates.part, ids.part, 0, webm(), q);
    expect(part.status).toBe(200);
    for (const [name, id] of [
      ["staged", ids.staged],
      ["part", ids.part],
    ] as const) {
      const res = await postAnswerRaw(candidates[name], { id, question: q, staged: "true", size: String(webm().length), fileName: "answer.webm" });
      expect(res.status, name).toBe(expected(name)); // the "part" candidate's take is submitted here first
    }
    // a retry after the success is refused, never a second answer
    const again = await postAnswerRaw(candidates.whole, { id: ids.whole, question: q, file: new File([webm()], "answer.webm", { type: "video/webm" }) });
    expect(again.status).toBe(400);
    const pb = await admin();
    for (const name of ["whole", "staged", "part"] as const) {
      expect(await countOf("answers", "candidate = {:c}", { c: candidates[name] }), name).toBe(1);
      const video = await pb.collection("video_answers").getFirstListItem(pb.filter("answer.candidate = {:c}", { c: candidates[name] }));
      const res = await fetch(pb.files.getURL(video, video.file as string, { token: await pb.files.getToken() }));
      expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(webm())), name).toBe(true);
    }
  });
});
