// Staged takes (server/internal/takes, server/internal/answers): a video take uploaded in parts while
// it is recorded, then submitted with a tiny POST /api/screenroom/answers {take, size, fileName}. Staged parts are
// not an answer; the submit makes exactly the answer the whole-file upload would have made, or 409 and nothing.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { binaryPath } from "../scripts/lib/pocketbase.mjs";
import {
  anonymous,
  asCandidate,
  deleteTake,
  errorOf,
  fixture,
  keyOf,
  postAnswer,
  putPart,
  randomId,
  statusOf,
  webmFile,
  newCandidateOf,
  world,
} from "./helpers";
import { admin, answersOf, countOf, mp4File, storedOrNull } from "./support";

let w: Awaited<ReturnType<typeof world>>;
let other: Awaited<ReturnType<typeof world>>;

beforeAll(async () => {
  w = await world("takes");
  other = await world("takes-other");
});

const MB = 1024 * 1024;
const NOT_COMPLETE = { status: 409, message: "The take is not complete on the server.", data: {} };
const REPLACED = { status: 409, message: "This take was replaced by a newer one.", data: {} };

const newCandidate = () => newCandidateOf(w, "takes-candidate");
const stagingDir = (takeId: string) => join(inject("pbDataDir"), "screenroom_takes", takeId);
const partsIn = (takeId: string) => readdirSync(stagingDir(takeId)).filter((name) => /^\d+$/.test(name));

/** A take's row in the hidden staged_takes collection (superusers only), or null. */
async function rowOf(takeId: string): Promise<RecordModel | null> {
  const su = await admin();
  const rows = await su.collection("staged_takes").getFullList({ filter: su.filter("take = {:t}", { t: takeId }) });
  return rows[0] ?? null;
}

/** Every staged_takes row of a candidate and question. */
async function rowsOfPair(candidate: string, question: string) {
  const su = await admin();
  return su.collection("staged_takes").getFullList({ filter: su.filter("candidate = {:c} && question = {:q}", { c: candidate, q: question }) });
}

/** A part sent with a chunked body (no Content-Length), as a raw fetch. */
async function putChunked(candidate: string, takeId: string, offset: number, chunks: number, chunk: Uint8Array, question: string) {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ < chunks) controller.enqueue(chunk);
      else controller.close();
    },
  });
  return fetch(`${inject("pbUrl")}/api/screenroom/takes/${takeId}/parts/${offset}?question=${question}`, {
    method: "PUT",
    headers: { "X-Candidate-Key": (await keyOf(candidate)) ?? candidate, "Content-Type": "application/octet-stream" },
    body: stream,
    duplex: "half",
  } as RequestInit);
}

/** `bytes` cut at the given offsets: [{offset, bytes}]. */
function cut(bytes: Uint8Array<ArrayBuffer>, at: number[]) {
  const bounds = [0, ...at, bytes.length];
  return bounds.slice(0, -1).map((offset, i) => ({ offset, bytes: bytes.subarray(offset, bounds[i + 1]) }));
}

const webm = () => new Uint8Array(fixture("answer.webm"));

/** Stages every part of `bytes` (cut at `at`) in the given order of indexes (default: in order). */
async function stage(pb: PocketBase, takeId: string, question: string, bytes: Uint8Array<ArrayBuffer>, at: number[], order?: number[]) {
  const parts = cut(bytes, at);
  for (const i of order ?? parts.map((_, i) => i)) {
    const part = parts[i]!;
    const res = await putPart(pb, takeId, part.offset, part.bytes, question);
    expect(res).toEqual({ take: takeId, offset: part.offset, size: part.bytes.length });
  }
}

/** POST /api/screenroom/answers with a staged take, as multipart (the default) or JSON. */
function submit(
  pb: PocketBase,
  fields: { id: string; candidate: string; question: string; size: number; fileName?: string },
  as: "multipart" | "json" = "multipart",
) {
  const body = { staged: true, fileName: "answer.webm", ...fields };
  if (as === "json") return pb.send<{ answer: { id: string }; kind: string; record: { id: string } }>("/api/screenroom/answers", { method: "POST", body });
  return postAnswer(pb, { ...body, staged: "true", size: String(body.size) });
}

/** The stored file of the answer's video record, fetched by the job's manager with a file token. */
async function storedVideo(answerId: string) {
  const su = await admin();
  const video = await su.collection("video_answers").getFirstListItem(su.filter("answer = {:a}", { a: answerId }));
  const token = await w.manager.pb.files.getToken();
  const served = await fetch(w.manager.pb.files.getURL(video, video.file as string, { token }));
  expect(served.status).toBe(200);
  return { video, bytes: Buffer.from(await served.arrayBuffer()) };
}

async function expectNotComplete(call: () => Promise<unknown>) {
  const err = await errorOf(call);
  expect(err.status).toBe(409);
  expect(err.response).toEqual(NOT_COMPLETE);
}

describe("staging a take and submitting it", () => {
  it("parts then a tiny submit make exactly one answer, its file byte-identical to the parts, its record like an upload's", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const id = randomId();
    const bytes = webm();
    await stage(pb, id, w.video.question.id, bytes, [4000, 9000]);
    expect(existsSync(stagingDir(id))).toBe(true);
    // staged parts are not an answer: nobody sees anything yet
    expect(await answersOf(candidate)).toBe(0);
    expect(await storedOrNull("answers", id)).toBeNull();

    const res = await submit(pb, { id, candidate, question: w.video.question.id, size: bytes.length });
    expect(res.answer.id).toBe(id);
    expect(res.kind).toBe("video_answers");
    expect(await answersOf(candidate)).toBe(1);
    expect(await countOf("video_answers", "answer = {:a}", { a: id })).toBe(1);

    const { video, bytes: served } = await storedVideo(id);
    expect(video.id).toBe(res.record.id);
    expect(video).toMatchObject({ mimeType: "video/webm", transcriptStatus: "pending", transcript: "", durationSeconds: 0 });
    expect(video.file).toMatch(/^answer_\w+\.webm$/);
    expect(served.equals(Buffer.from(bytes))).toBe(true);
    // the staging dir is gone after a successful submit
    expect(existsSync(stagingDir(id))).toBe(false);
    // the candidate reads its answer back, as after any upload
    expect((await pb.collection("answers").getOne(id)).id).toBe(id);
  });

  it("makes the same answer as the whole file would (the video record's fields side by side)", async () => {
    const staged = await newCandidate();
    const uploaded = await newCandidate();
    const stagedId = randomId();
    const uploadedId = randomId();
    await stage(asCandidate(staged), stagedId, w.video.question.id, webm(), [7000]);
    await submit(asCandidate(staged), { id: stagedId, candidate: staged, question: w.video.question.id, size: webm().length });
    await postAnswer(asCandidate(uploaded), { id: uploadedId, candidate: uploaded, question: w.video.question.id, file: webmFile() });
    const a = (await storedVideo(stagedId)).video;
    const b = (await storedVideo(uploadedId)).video;
    for (const field of ["mimeType", "transcriptStatus", "transcript", "transcriptAttempts", "durationSeconds"]) {
      expect(a[field], field).toEqual(b[field]);
    }
  });

  it("takes a JSON submit, and an mp4 take as video/mp4", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const id = randomId();
    const bytes = new Uint8Array(await mp4File().arrayBuffer());
    await stage(pb, id, w.video.question.id, bytes, [10]);
    await submit(pb, { id, candidate, question: w.video.question.id, size: bytes.length, fileName: "answer.mp4" }, "json");
    const { video, bytes: served } = await storedVideo(id);
    expect(video.mimeType).toBe("video/mp4");
    expect(video.file).toMatch(/\.mp4$/);
    expect(served.equals(Buffer.from(bytes))).toBe(true);
  });

  it("a retried part replaces the earlier one (any length) in the take; its bytes count against the limit both times", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const id = randomId();
    const bytes = webm();
    // a first attempt of part 0 that arrived garbled and longer
    await putPart(pb, id, 0, new Uint8Array(6000).fill(7), w.video.question.id);
    await stage(pb, id, w.video.question.id, bytes, [5000]);
    expect(partsIn(id).sort()).toEqual(["0", "5000"]);
    // every byte accepted for the take is reserved, the garbled attempt's too
    expect((await rowOf(id))?.bytes).toBe(6000 + bytes.length);
    await submit(pb, { id, candidate, question: w.video.question.id, size: bytes.length });
    expect((await storedVideo(id)).bytes.equals(Buffer.from(bytes))).toBe(true);
  });

  it("parts may arrive in any order, and several at once", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const id = randomId();
    const bytes = webm();
    await stage(pb, id, w.video.question.id, bytes, [3000, 6000, 12000], [3, 1, 2, 0]);
    await submit(pb, { id, candidate, question: w.video.question.id, size: bytes.length });
    expect((await storedVideo(id)).bytes.equals(Buffer.from(bytes))).toBe(true);

    // a take's first parts racing each other: one of them records whose take it is, all are stored
    const racer = await newCandidate();
    const racing = asCandidate(racer);
    const raceId = randomId();
    const parts = cut(bytes, [2000, 4000, 8000, 11000]);
    const results = await Promise.all(parts.map((part) => putPart(racing, raceId, part.offset, part.bytes, w.video.question.id)));
    expect(results.map((r) => r.size)).toEqual(parts.map((p) => p.bytes.length));
    await submit(racing, { id: raceId, candidate: racer, question: w.video.question.id, size: bytes.length });
    expect((await storedVideo(raceId)).bytes.equals(Buffer.from(bytes))).toBe(true);
  });
});

// Issue 20 point 4 (decisions.md, issue 26's ruling: "a submit only moves it and syncs the folder"): the parts are
// written into the take's one file as they arrive, and the submit moves that file into the answer's storage folder
// (server/internal/takes/staged_takes.go), so it costs the same at any length.
describe("a take's one file", () => {
  const takeFile = (id: string) => join(stagingDir(id), "take");
  const storedPath = (video: RecordModel) => join(inject("pbDataDir"), "storage", video.collectionId, video.id, video.file as string);
  /** What a submit cut off by a stop of the server leaves: the take's file in a .submit dir, no answer. */
  const cutOffSubmit = (id: string) => {
    mkdirSync(join(stagingDir(id), ".submit-cutoff000"));
    renameSync(takeFile(id), join(stagingDir(id), ".submit-cutoff000", "answer.webm"));
  };

  it("holds the parts' bytes (their own files only their sizes), and becomes the stored file: moved, not copied", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const id = randomId();
    const bytes = webm();
    await stage(pb, id, w.video.question.id, bytes, [4000, 9000], [2, 0, 1]);
    expect(new Uint8Array(readFileSync(takeFile(id)))).toEqual(bytes);
    expect(statSync(join(stagingDir(id), "4000")).size).toBe(5000);
    expect(statSync(join(stagingDir(id), "4000")).blocks).toBe(0);
    const staged = statSync(takeFile(id));
    await submit(pb, { id, candidate, question: w.video.question.id, size: bytes.length });
    const { video, bytes: served } = await storedVideo(id);
    expect(served.equals(Buffer.from(bytes))).toBe(true);
    expect(statSync(storedPath(video)).ino).toBe(staged.ino);
    expect(existsSync(stagingDir(id))).toBe(false);
  });

  it("is served part by part to its candidate, and after a submit cut off by a stop of the server, stored whole", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const id = randomId();
    const bytes = webm();
    await stage(pb, id, w.video.question.id, bytes, [6000]);
    cutOffSubmit(id);
    // the take is still its candidate's to read back (the part from the file the submit left)...
    const part = await fetch(`${inject("pbUrl")}/api/screenroom/takes/${id}/parts/6000`, { headers: { "X-Candidate-Key": (await keyOf(candidate))! } });
    expect(part.status).toBe(200);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.subarray(6000));
    // ...and to submit
    cutOffSubmit(id);
    await submit(pb, { id, candidate, question: w.video.question.id, size: bytes.length });
    expect((await storedVideo(id)).bytes.equals(Buffer.from(bytes))).toBe(true);
  });

  it("a take staged before this layout (its bytes in its part files) is still read back and stored", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const id = randomId();
    const bytes = webm();
    await stage(pb, id, w.video.question.id, bytes, [5000]);
    // as an older server left it: no layout mark, no take file, each part's bytes in its own file
    rmSync(join(stagingDir(id), ".joined"));
    rmSync(takeFile(id));
    for (const part of cut(bytes, [5000])) writeFileSync(join(stagingDir(id), String(part.offset)), part.bytes);
    const part = await fetch(`${inject("pbUrl")}/api/screenroom/takes/${id}/parts/0`, { headers: { "X-Candidate-Key": (await keyOf(candidate))! } });
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.subarray(0, 5000));
    await submit(pb, { id, candidate, question: w.video.question.id, size: bytes.length });
    expect((await storedVideo(id)).bytes.equals(Buffer.from(bytes))).toBe(true);
  });
});

describe("a take that is not complete: 409, nothing created, and the whole file still goes the old way", () => {
  it("a gap", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const id = randomId();
    const bytes = webm();
    const parts = cut(bytes, [4000, 9000]);
    for (const part of [parts[0]!, parts[2]!]) await putPart(pb, id, part.offset, part.bytes, w.video.question.id);
    await expectNotComplete(() => submit(pb, { id, candidate, question: w.video.question.id, size: bytes.length }));
    expect(await storedOrNull("answers", id)).toBeNull();
    expect(await countOf("video_answers", "answer = {:a}", { a: id })).toBe(0);
    // the client's fallback: the whole file, same id
    await postAnswer(pb, { id, candidate, question: w.video.question.id, file: webmFile() });
    expect(await answersOf(candidate)).toBe(1);
  });

  it("overlapping parts", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const id = randomId();
    const bytes = webm();
    await putPart(pb, id, 0, bytes.subarray(0, 5000), w.video.question.id);
    await putPart(pb, id, 4000, bytes.subarray(4000), w.video.question.id);
    await expectNotComplete(() => submit(pb, { id, candidate, question: w.video.question.id, size: bytes.length }));
    expect(await answersOf(candidate)).toBe(0);
  });

  it("a size that is not the parts' total (fewer or more bytes), and no parts at all", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const id = randomId();
    const bytes = webm();
    await stage(pb, id, w.video.question.id, bytes, [8000]);
    for (const size of [bytes.length - 1, bytes.length + 1, bytes.length + 5000]) {
      await expectNotComplete(() => submit(pb, { id, candidate, question: w.video.question.id, size }));
    }
    expect(await answersOf(candidate)).toBe(0);
    // the take is still there: the right size goes through
    await submit(pb, { id, candidate, question: w.video.question.id, size: bytes.length });
    expect(await answersOf(candidate)).toBe(1);
  });

  it("a take never staged", async () => {
    const candidate = await newCandidate();
    const id = randomId();
    await expectNotComplete(() => submit(asCandidate(candidate), { id, candidate, question: w.video.question.id, size: 100 }, "json"));
    expect(await storedOrNull("answers", id)).toBeNull();
  });

  it("a take staged for another question of the same candidate", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const id = randomId();
    await stage(pb, id, w.video.question.id, webm(), []);
    await expectNotComplete(() => submit(pb, { id, candidate, question: w.text.question.id, size: webm().length }));
    expect(await answersOf(candidate)).toBe(0);
  });
});

describe("someone else's take", () => {
  it("another candidate is refused on its parts (403), cannot discard it (403), and its submit is 409 (400 when it names the owner)", async () => {
    const owner = await newCandidate();
    const intruder = await newCandidate();
    const id = randomId();
    const bytes = webm();
    await putPart(asCandidate(owner), id, 0, bytes.subarray(0, 5000), w.video.question.id);

    const theirs = asCandidate(intruder);
    expect(await statusOf(() => putPart(theirs, id, 5000, bytes.subarray(5000), w.video.question.id))).toBe(403);
    expect(await statusOf(() => putPart(theirs, id, 0, new Uint8Array(5000), w.video.question.id))).toBe(403);
    expect(await statusOf(() => deleteTake(theirs, id))).toBe(403);
    expect(existsSync(stagingDir(id))).toBe(true);

    await putPart(asCandidate(owner), id, 5000, bytes.subarray(5000), w.video.question.id);
    // as itself, and naming the owner in the body
    await expectNotComplete(() => submit(theirs, { id, candidate: intruder, question: w.video.question.id, size: bytes.length }));
    // naming the owner with the intruder's key: refused before the take is looked at
    expect(await statusOf(() => submit(theirs, { id, candidate: owner, question: w.video.question.id, size: bytes.length }))).toBe(400);
    expect(await storedOrNull("answers", id)).toBeNull();
    expect(await answersOf(intruder)).toBe(0);
    // the owner's take is untouched
    await submit(asCandidate(owner), { id, candidate: owner, question: w.video.question.id, size: bytes.length });
    expect((await storedVideo(id)).bytes.equals(Buffer.from(bytes))).toBe(true);
  });

  it("the same candidate naming another question on a later part is refused", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const id = randomId();
    await putPart(pb, id, 0, webm().subarray(0, 100), w.video.question.id);
    expect(await statusOf(() => putPart(pb, id, 100, webm().subarray(100, 200), w.text.question.id))).toBe(403);
  });

  it("the create rule decides a take's first part: another job's question, an unknown candidate, no candidate", async () => {
    const candidate = await newCandidate();
    const cases: [PocketBase, string][] = [
      [asCandidate(candidate), other.video.question.id],
      [asCandidate(other.candidate.id), w.video.question.id],
      [asCandidate("nosuchcandidat1"), w.video.question.id],
      [anonymous(), w.video.question.id],
    ];
    for (const [pb, question] of cases) {
      const id = randomId();
      const err = await errorOf(() => putPart(pb, id, 0, webm().subarray(0, 100), question));
      expect(err.status).toBe(403);
      expect(err.response.message).toBe("You cannot record an answer to this question.");
      expect(existsSync(stagingDir(id))).toBe(false);
    }
  });
});

describe("the parts route refuses", () => {
  it("a part for an answer that already exists (400), and a submit of it again is refused like any retry", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const id = randomId();
    await stage(pb, id, w.video.question.id, webm(), [5000]);
    await submit(pb, { id, candidate, question: w.video.question.id, size: webm().length });
    const err = await errorOf(() => putPart(pb, id, 0, webm().subarray(0, 5000), w.video.question.id));
    expect(err.status).toBe(400);
    expect(err.response.message).toBe("This answer has already been submitted.");
    expect(existsSync(stagingDir(id))).toBe(false);
    // the lost-response retry of the submit: refused, still one answer
    expect(await statusOf(() => submit(pb, { id, candidate, question: w.video.question.id, size: webm().length }))).toBe(400);
    expect(await answersOf(candidate)).toBe(1);
  });

  it("a take for a question the candidate already answered under another id, and for a text question", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    await postAnswer(pb, { id: randomId(), candidate, question: w.video.question.id, file: webmFile() });
    const again = await errorOf(() => putPart(pb, randomId(), 0, webm().subarray(0, 100), w.video.question.id));
    expect(again.status).toBe(400);
    expect(again.response.data.question.message).toBe("This question has already been answered.");
    const text = await errorOf(() => putPart(pb, randomId(), 0, webm().subarray(0, 100), w.text.question.id));
    expect(text.status).toBe(400);
    expect(text.response.message).toBe("This question does not take a video answer.");
  });

  it.each([
    ["a short take id", "abc", "0"],
    ["an upper-case take id", "ABCDEFGHIJKLMNO", "0"],
    ["a 16-character take id", "abcdefghijklmnop", "0"],
    ["a take id with a dot", "abcdefghijklmn.", "0"],
    ["a negative offset", "", "-1"],
    ["a fractional offset", "", "1.5"],
    ["an offset in words", "", "ten"],
    ["an exponent offset", "", "1e3"],
    ["a 16-digit offset", "", "1234567890123456"],
  ])("%s (400)", async (_what, takeId, offset) => {
    const candidate = await newCandidate();
    const status = await statusOf(() => putPart(asCandidate(candidate), takeId || randomId(), offset, new Uint8Array(10), w.video.question.id));
    expect(status).toBe(400);
  });

  it("a part without a question (400), and a malformed take id on DELETE (400)", async () => {
    const candidate = await newCandidate();
    expect(await statusOf(() => putPart(asCandidate(candidate), randomId(), 0, new Uint8Array(10), ""))).toBe(400);
    expect(await statusOf(() => deleteTake(asCandidate(candidate), "ABC"))).toBe(400);
  });

  it("a part ending past the video size limit (400), without storing it", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const id = randomId();
    await putPart(pb, id, 0, new Uint8Array(100), w.video.question.id);
    const err = await errorOf(() => putPart(pb, id, 150 * MB - 50, new Uint8Array(100), w.video.question.id));
    expect(err.status).toBe(400);
    expect(err.response.message).toMatch(/larger than 150 MB/);
    expect(await statusOf(() => putPart(pb, id, 150 * MB + 1, new Uint8Array(0), w.video.question.id))).toBe(400);
    expect(readdirSync(stagingDir(id)).filter((name) => /^\d+$/.test(name))).toEqual(["0"]);
    // right at the limit is fine
    await putPart(pb, id, 150 * MB - 50, new Uint8Array(50), w.video.question.id);
    await deleteTake(pb, id);
  });

  it("bytes accepted for a take adding up to more than the video size limit (400), retries included, and a part over 16 MB (413)", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const id = randomId();
    const part = new Blob([new Uint8Array(16 * MB)]);
    // overlapping 16 MB parts: each ends within 150 MB, together they hold 9 × 16 = 144 MB
    for (let i = 0; i < 9; i++) await putPart(pb, id, i, part, w.video.question.id);
    const err = await errorOf(() => putPart(pb, id, 9, part, w.video.question.id));
    expect(err.status).toBe(400);
    expect(err.response.message).toMatch(/larger than 150 MB/);
    // a retry is bytes accepted again: 16 MB more does not fit either, what is left (6 MB) does
    expect(await statusOf(() => putPart(pb, id, 8, part, w.video.question.id))).toBe(400);
    await putPart(pb, id, 8, new Blob([new Uint8Array(6 * MB)]), w.video.question.id);
    expect((await rowOf(id))?.bytes).toBe(150 * MB);
    expect(partsIn(id)).toHaveLength(9);
    expect(statSync(join(stagingDir(id), "8")).size).toBe(6 * MB);
    expect(await statusOf(() => putPart(pb, id, 9, new Uint8Array(1), w.video.question.id))).toBe(400);

    expect(await statusOf(() => putPart(pb, id, 0, new Blob([new Uint8Array(16 * MB + 1)]), w.video.question.id))).toBe(413);
    // the same without a Content-Length (chunked): refused before a byte is read, as any part without one (411)
    const res = await putChunked(candidate, id, 0, 17, new Uint8Array(MB), w.video.question.id);
    expect(res.status).toBe(411);
    // nothing half-written is left behind
    expect(readdirSync(stagingDir(id)).filter((name) => name.startsWith(".part-") || name.startsWith(".submit-"))).toEqual([]);
    await deleteTake(pb, id);
    expect(existsSync(stagingDir(id))).toBe(false);
  });

  it("a part without a Content-Length (a chunked body): 411, nothing stored, no take started", async () => {
    const candidate = await newCandidate();
    const id = randomId();
    const res = await putChunked(candidate, id, 0, 4, new Uint8Array(1000).fill(1), w.video.question.id);
    expect(res.status).toBe(411);
    expect(await res.json()).toMatchObject({ status: 411, message: "A part needs a Content-Length header (a chunked body is not accepted)." });
    expect(existsSync(stagingDir(id))).toBe(false);
    expect(await rowOf(id)).toBeNull();

    // nor a later part of a take that was started
    const pb = asCandidate(candidate);
    await putPart(pb, id, 0, webm().subarray(0, 5000), w.video.question.id);
    expect((await putChunked(candidate, id, 5000, 4, new Uint8Array(1000), w.video.question.id)).status).toBe(411);
    expect(partsIn(id)).toEqual(["0"]);
    expect((await rowOf(id))?.bytes).toBe(5000);
    await deleteTake(pb, id);
  });

  it("parts of one take sent at once cannot reserve more than the video size limit between them", async () => {
    const su = await admin();
    const collection = await su.collections.getOne("video_answers");
    const original = structuredClone(collection.fields);
    const lowered = structuredClone(collection.fields);
    const fileField = lowered.find((field: { name: string }) => field.name === "file")!;
    fileField.maxSize = MB; // for this test only: 1 MB
    await su.collections.update(collection.id, { fields: lowered });
    try {
      const candidate = await newCandidate();
      const pb = asCandidate(candidate);
      const id = randomId();
      const size = 200 * 1024;
      // 8 parts of 200 KB at once (1.6 MB): five fit in 1 MB, whoever comes first
      const statuses = await Promise.all(
        Array.from({ length: 8 }, (_, i) => statusOf(() => putPart(pb, id, i * size, new Uint8Array(size).fill(i + 1), w.video.question.id))),
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(5);
      expect(statuses.filter((status) => status === 400)).toHaveLength(3);
      const row = await rowOf(id);
      expect(row?.bytes).toBe(5 * size);
      expect(partsIn(id)).toHaveLength(5);
      const onDisk = partsIn(id).reduce((sum, name) => sum + statSync(join(stagingDir(id), name)).size, 0);
      expect(onDisk).toBeLessThanOrEqual(MB);
      const err = await errorOf(() => putPart(pb, id, 0, new Uint8Array(size), w.video.question.id));
      expect(err.response.message).toMatch(/larger than 1 MB/);
      await deleteTake(pb, id);
    } finally {
      await su.collections.update(collection.id, { fields: original });
    }
    expect((await su.collections.getOne("video_answers")).fields.find((field: { name: string }) => field.name === "file")?.maxSize).toBe(150 * MB);
  });
});

describe("a complete take the video field refuses", () => {
  it("is the file path's 400 on data.file; nothing is created and the parts stay for the whole-file fallback", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const id = randomId();
    const png = new Uint8Array(fixture("logo.png"));
    await stage(pb, id, w.video.question.id, png, [100]);
    const err = await errorOf(() => submit(pb, { id, candidate, question: w.video.question.id, size: png.length }));
    expect(err.status).toBe(400);
    expect(err.response.data.file).toBeDefined();
    expect(await storedOrNull("answers", id)).toBeNull();
    expect(partsIn(id).sort()).toEqual(["0", "100"]);
    // the take's file is back where the refused submit took it from, whole
    expect(readdirSync(stagingDir(id)).filter((name) => name.startsWith(".submit-"))).toEqual([]);
    expect(new Uint8Array(readFileSync(join(stagingDir(id), "take")))).toEqual(png);
    expect(await rowOf(id)).toMatchObject({ candidate, question: w.video.question.id, retired: false });
    await deleteTake(pb, id);
  });
});

describe("the answers route with a take refuses malformed submits (400)", () => {
  it.each([
    ["an answer id that is no take's id", { id: "nope" }],
    ["no size", { size: undefined }],
    ["a negative size", { size: "-5" }],
    ["a fractional size", { size: "2.5" }],
    ["another file name", { fileName: "take.webm" }],
    ["a file name with a path", { fileName: "../answer.webm" }],
    ["content besides the take", { content: "Hello" }],
  ] as const)("%s", async (_what, change) => {
    const candidate = await newCandidate();
    const id = randomId();
    const fields: Record<string, string> = { id, staged: "true", candidate, question: w.video.question.id, size: "100", fileName: "answer.webm" };
    for (const [name, value] of Object.entries(change)) {
      if (value === undefined) delete fields[name];
      else fields[name] = value;
    }
    expect(await statusOf(() => postAnswer(asCandidate(candidate), fields))).toBe(400);
    expect(await answersOf(candidate)).toBe(0);
  });

  it("a file besides the take", async () => {
    const candidate = await newCandidate();
    const id = randomId();
    const pb = asCandidate(candidate);
    await stage(pb, id, w.video.question.id, webm(), []);
    const fields = { id, staged: "true", candidate, question: w.video.question.id, size: String(webm().length), fileName: "answer.webm", file: webmFile() };
    expect(await statusOf(() => postAnswer(pb, fields))).toBe(400);
    expect(await answersOf(candidate)).toBe(0);
  });
});

describe("discarding a take", () => {
  it("DELETE removes it (204, again 204), and a submit after it is 409", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const id = randomId();
    await stage(pb, id, w.video.question.id, webm(), [5000]);
    expect(await statusOf(() => deleteTake(pb, id))).toBe(200); // the SDK's status for 204
    expect(existsSync(stagingDir(id))).toBe(false);
    expect(await statusOf(() => deleteTake(pb, id))).toBe(200);
    await expectNotComplete(() => submit(pb, { id, candidate, question: w.video.question.id, size: webm().length }));
    expect(await answersOf(candidate)).toBe(0);
  });

  it("a part sent after the DELETE is refused (409) and starts nothing again, at any offset", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const id = randomId();
    await stage(pb, id, w.video.question.id, webm(), [5000]);
    await deleteTake(pb, id);
    for (const offset of [5000, 0]) {
      const err = await errorOf(() => putPart(pb, id, offset, webm().subarray(offset, offset + 1000), w.video.question.id));
      expect(err.status).toBe(409);
      expect(err.response).toEqual(REPLACED);
    }
    expect(existsSync(stagingDir(id))).toBe(false);
    // the row stays as a tombstone until the hourly job
    expect(await rowOf(id)).toMatchObject({ retired: true });
    await expectNotComplete(() => submit(pb, { id, candidate, question: w.video.question.id, size: webm().length }));
    // the whole file still goes
    await postAnswer(pb, { id, candidate, question: w.video.question.id, file: webmFile() });
    expect(await rowOf(id)).toBeNull();
  });

  it("answers 204 for an unknown take", async () => {
    const res = await fetch(`${inject("pbUrl")}/api/screenroom/takes/${randomId()}`, {
      method: "DELETE",
      headers: { "X-Candidate-Key": (await keyOf(await newCandidate()))! },
    });
    expect(res.status).toBe(204);
  });

  it("the hourly job removes takes untouched for 30 days (row and dir), strays without a row, and leaves the others", async () => {
    // three candidates: a candidate's new take of a question would replace its earlier one
    const pb = asCandidate(await newCandidate());
    const freshPb = asCandidate(await newCandidate());
    const keptPb = asCandidate(await newCandidate());
    const stale = randomId();
    const fresh = randomId();
    const kept = randomId();
    await stage(pb, stale, w.video.question.id, webm(), [5000]);
    await stage(freshPb, fresh, w.video.question.id, webm(), [5000]);
    await stage(keptPb, kept, w.video.question.id, webm(), [5000]);
    const dayAgo = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000);
    backdateRows([stale], dayAgo);
    // a take left two days ago is still the candidate's recording (decisions.md "Staged takes")
    backdateRows([kept], new Date(Date.now() - 2 * 24 * 60 * 60 * 1000));
    expect(new Date((await rowOf(stale))!.updated as string).getTime()).toBe(dayAgo.getTime());
    // dirs without a row: one untouched for 31 days, one new (maybe a take whose row is being made)
    const strayOld = stagingDir(randomId());
    const strayNew = stagingDir(randomId());
    for (const dir of [strayOld, strayNew]) {
      mkdirSync(dir);
      writeFileSync(join(dir, "0"), "leftover");
    }
    utimesSync(join(strayOld, "0"), dayAgo, dayAgo);
    utimesSync(strayOld, dayAgo, dayAgo);

    const su = await admin();
    expect((await su.crons.getFullList()).map((job) => job.id)).toContain("screenroomStaleTakes");
    await su.crons.run("screenroomStaleTakes"); // runs in the background
    await expect.poll(async () => existsSync(stagingDir(stale)) || (await rowOf(stale)) !== null, { timeout: 30_000 }).toBe(false);
    await expect.poll(() => existsSync(strayOld), { timeout: 30_000 }).toBe(false);
    expect(existsSync(stagingDir(fresh))).toBe(true);
    expect(await rowOf(fresh)).toMatchObject({ retired: false });
    expect(existsSync(stagingDir(kept))).toBe(true);
    expect(await rowOf(kept)).toMatchObject({ retired: false });
    await deleteTake(keptPb, kept);
    expect(existsSync(strayNew)).toBe(true);
    rmSync(strayNew, { recursive: true });
    await deleteTake(freshPb, fresh);
  });
});

/**
 * Sets the `updated` time of the takes' staged_takes rows, which no API can (an autodate field): a one-off JS
 * migration run by the same PocketBase binary against the test server's data dir.
 */
function backdateRows(takeIds: string[], at: Date) {
  const dir = mkdtempSync(join(tmpdir(), "screenroom-backdate-"));
  try {
    mkdirSync(join(dir, "hooks"));
    mkdirSync(join(dir, "migrations"));
    const updated = at.toISOString().replace("T", " ");
    writeFileSync(
      join(dir, "migrations", `${Math.floor(Date.now() / 1000)}_backdate_staged_takes.js`),
      `migrate((app) => {
        for (const take of ${JSON.stringify(takeIds)}) {
          app.db().newQuery("UPDATE staged_takes SET updated = {:updated} WHERE take = {:take}").bind({ updated: ${JSON.stringify(updated)}, take }).execute();
        }
      });`,
    );
    const args = ["migrate", "up", "--dir", inject("pbDataDir"), "--migrationsDir", join(dir, "migrations")];
    execFileSync(binaryPath, args, { stdio: "pipe" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("one staged take per candidate and question", () => {
  it("a new take replaces the earlier one (whose submit is then 409); other questions' and candidates' takes stay", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const neighbour = await newCandidate();
    const first = randomId();
    const second = randomId();
    const theirs = randomId();
    await stage(pb, first, w.video.question.id, webm(), [5000]);
    await stage(asCandidate(neighbour), theirs, w.video.question.id, webm(), [5000]);
    expect(existsSync(stagingDir(first))).toBe(true);

    await stage(pb, second, w.video.question.id, webm(), [5000]);
    expect(existsSync(stagingDir(first))).toBe(false);
    expect(existsSync(stagingDir(theirs))).toBe(true);
    await expectNotComplete(() => submit(pb, { id: first, candidate, question: w.video.question.id, size: webm().length }));
    expect(await answersOf(candidate)).toBe(0);

    // the newer take is whole and becomes the answer
    const res = await submit(pb, { id: second, candidate, question: w.video.question.id, size: webm().length });
    expect(res.answer.id).toBe(second);
    expect((await storedVideo(second)).bytes.equals(Buffer.from(webm()))).toBe(true);
    await deleteTake(asCandidate(neighbour), theirs);
  });
});

describe("one live take per candidate and question, decided one request at a time", () => {
  it("12 takes' first parts at once start the question's 2 takes (the others 403) and leave exactly one take live; the other's dir is gone and its parts refused (409)", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const question = w.video.question.id;
    const bytes = webm();
    const ids = Array.from({ length: 12 }, () => randomId());
    const statuses = await Promise.all(ids.map((id) => statusOf(() => putPart(pb, id, 0, bytes.subarray(0, 5000), question))));
    // the question allows 2 takes: 10 first parts start none; of the 2 takes, one replaced before its part was
    // written is refused, the others were accepted, then replaced
    expect(statuses.filter((status) => status === 403)).toHaveLength(10);
    for (const status of statuses) expect([200, 403, 409]).toContain(status);

    const rows = await rowsOfPair(candidate, question);
    expect(rows.map((row) => row.take).sort()).toEqual(ids.filter((_, i) => statuses[i] !== 403).sort());
    const live = rows.filter((row) => !row.retired);
    expect(live).toHaveLength(1);
    const winner = live[0]!.take as string;
    expect(statuses[ids.indexOf(winner)]).toBe(200);
    for (const id of ids) expect(existsSync(stagingDir(id)), id).toBe(id === winner);

    // a replaced take stays replaced: later parts, and a first part again, are 409, and its dir is not made again
    const loser = rows.find((row) => row.retired)!.take as string;
    for (const offset of [5000, 0]) {
      const err = await errorOf(() => putPart(pb, loser, offset, bytes.subarray(offset, offset + 1000), question));
      expect(err.response).toEqual(REPLACED);
    }
    expect(existsSync(stagingDir(loser))).toBe(false);
    await expectNotComplete(() => submit(pb, { id: loser, candidate, question, size: bytes.length }));

    // the live take goes on and becomes the answer
    await putPart(pb, winner, 5000, bytes.subarray(5000), question);
    await submit(pb, { id: winner, candidate, question, size: bytes.length });
    expect((await storedVideo(winner)).bytes.equals(Buffer.from(bytes))).toBe(true);
    expect(await rowOf(winner)).toBeNull();
    expect(existsSync(stagingDir(winner))).toBe(false);
  });

  it("a late part of a replaced take is refused (409) and leaves the newer take whole, which submits", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const question = w.video.question.id;
    const bytes = webm();
    const older = randomId();
    const newer = randomId();
    await putPart(pb, older, 0, bytes.subarray(0, 5000), question);
    await stage(pb, newer, question, bytes, [5000]);
    expect(existsSync(stagingDir(older))).toBe(false);

    // the older take's next part, still on its way when 'Record again' started the newer take; and its first part
    // sent again (a retry), which once looked like a new take and replaced the newer one
    for (const offset of [5000, 0]) {
      const err = await errorOf(() => putPart(pb, older, offset, bytes.subarray(offset), question));
      expect(err.status).toBe(409);
      expect(err.response).toEqual(REPLACED);
    }
    expect(existsSync(stagingDir(older))).toBe(false);
    expect(await rowOf(older)).toMatchObject({ retired: true });
    expect(await rowOf(newer)).toMatchObject({ retired: false, bytes: bytes.length });
    expect(partsIn(newer).sort()).toEqual(["0", "5000"]);

    await submit(pb, { id: newer, candidate, question, size: bytes.length });
    expect((await storedVideo(newer)).bytes.equals(Buffer.from(bytes))).toBe(true);
  });

  it("a whole-file answer removes the take staged under its id (row and dir)", async () => {
    const candidate = await newCandidate();
    const pb = asCandidate(candidate);
    const question = w.video.question.id;
    const id = randomId();
    // a take whose submit could not work (a gap): the client's fallback uploads the whole file under the same id
    const parts = cut(webm(), [4000, 9000]);
    for (const part of [parts[0]!, parts[2]!]) await putPart(pb, id, part.offset, part.bytes, question);
    await expectNotComplete(() => submit(pb, { id, candidate, question, size: webm().length }));
    expect(existsSync(stagingDir(id))).toBe(true);
    await postAnswer(pb, { id, candidate, question, file: webmFile() });
    expect(existsSync(stagingDir(id))).toBe(false);
    expect(await rowOf(id)).toBeNull();
    expect(await answersOf(candidate)).toBe(1);
  });

  it("a whole-file answer leaves another candidate's take alone, even under the same id", async () => {
    const candidate = await newCandidate();
    const neighbour = await newCandidate();
    const question = w.video.question.id;
    const theirs = randomId();
    await stage(asCandidate(neighbour), theirs, question, webm(), [5000]);
    await postAnswer(asCandidate(candidate), { id: theirs, candidate, question, file: webmFile() });
    expect(existsSync(stagingDir(theirs))).toBe(true);
    expect(await rowOf(theirs)).toMatchObject({ retired: false });
    await deleteTake(asCandidate(neighbour), theirs);
  });
});
