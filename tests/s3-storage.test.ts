// Object storage (issue 19): a PocketBase of this suite's own stores its files in a bucket of a real S3 server on
// loopback (versitygw, built from its Go module by scripts/lib/s3server.mjs), configured only by the S3_* variables
// (server/internal/platform/settings.go). A candidate's answer staged in parts is joined on local disk and stored in the
// bucket; the review plays it with a file token (Range too); the video length check reads it from the bucket; the
// media worker downloads it, remuxes it and stores the result in the bucket in its place; deleting the candidate
// leaves no object of theirs. Every object is seen through the S3 API (a signed ListObjectsV2), not PocketBase.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startPocketBase } from "../scripts/lib/pocketbase.mjs";
import { startS3Server } from "../scripts/lib/s3server.mjs";
import { MediaWorker } from "../worker/src/worker";
import { asCandidate, createQuestion, errorOf, newCandidateOf, postAnswer, putPart, randomId, useOwnServer, webmFile, world, type OwnServer } from "./helpers";
import { createBucket, getObject, listKeys, type S3Target } from "./s3-support";
import { createLink, fetchSharedVideo } from "./share-link-support";
import { admin, countOf } from "./support";
import { recordingOf, recordingOfClips } from "./worker/media-fixtures";
import { workerConfig } from "./worker/support";
import { readZip } from "./zip-reader";

// the LibriVox clip the worker tests use (7.1 s of speech), and two clips with 3 s of silence between (about 13 s)
const CLIP = "sense_and_sensibility_01_austen_64kb-0870";
const SECOND_CLIP = "sense_and_sensibility_01_austen_64kb-0880";

let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
let target: S3Target;
let server: OwnServer | undefined;
let s3Dir: string;

beforeAll(async () => {
  s3Dir = mkdtempSync(join(tmpdir(), "screenroom-s3-"));
  s3 = await startS3Server({ port: await freePort(), dataDir: s3Dir });
  target = s3;
  await createBucket(target);
  server = await useOwnServer(s3.env);
  // the first run on a machine builds versitygw from its Go module (`npm test` does it before the suites): minutes
}, 900_000);

afterAll(async () => {
  await server?.stop();
  await s3?.stop();
  if (s3Dir) rmSync(s3Dir, { recursive: true, force: true });
});

/** Where PocketBase keeps a record's file: {collectionId}/{recordId}/{name}, in the bucket as on local disk. */
const keyOf = (record: RecordModel, name = record.file as string) => `${record.collectionId}/${record.id}/${name}`;

/** Polls the bucket's keys under `prefix` until they are `expected` (at most 60 s). */
async function keysBecome(prefix: string, expected: string[]) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const keys = await listKeys(target, prefix);
    if (JSON.stringify(keys) === JSON.stringify(expected)) return;
    if (Date.now() > deadline) expect(keys).toEqual(expected);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Stages `bytes` in three parts and submits the take (staged: true), as the recorder does. */
async function stagedAnswer(candidate: string, question: string, bytes: Uint8Array<ArrayBuffer>) {
  const pb = asCandidate(candidate);
  const id = randomId();
  const cuts = [0, Math.floor(bytes.length / 3), Math.floor((2 * bytes.length) / 3), bytes.length];
  for (let i = 0; i < 3; i++) await putPart(pb, id, cuts[i]!, bytes.subarray(cuts[i]!, cuts[i + 1]!), question);
  return postAnswer(pb, { id, candidate, question, staged: "true", size: String(bytes.length), fileName: "answer.webm" });
}

describe("files on S3", () => {
  it("settings come from the environment: PocketBase's S3 storage is on with the bucket and endpoint", async () => {
    const su = await admin();
    const settings = await su.settings.getAll();
    expect(settings.s3).toMatchObject({ enabled: true, bucket: s3!.bucket, endpoint: s3!.url, region: s3!.region, forcePathStyle: true });
  });

  it(
    "a staged answer lands in the bucket, plays with a file token (Range too), is remuxed by the worker in the bucket, and leaves with its candidate",
    async () => {
      const w = await world("s3");
      // the company's logo is a file too: in the bucket
      expect(await listKeys(target, `${w.company.collectionId}/${w.company.id}/`)).toEqual([keyOf(w.company, w.company.logo as string)]);

      const bytes = new Uint8Array(readFileSync(recordingOf(CLIP)));
      const { record: video } = await stagedAnswer(w.candidate.id, w.video.question.id, bytes);
      // joined from the parts on local disk, stored through PocketBase's filesystem: the object is the recording
      expect(await listKeys(target, `${video.collectionId}/${video.id}/`)).toEqual([keyOf(video)]);
      expect(Buffer.compare(await getObject(target, keyOf(video)), Buffer.from(bytes))).toBe(0);
      // not on local disk: nothing of the record under pb_data/storage
      expect(existsSync(join(server!.dataDir, "storage", video.collectionId, video.id))).toBe(false);
      expect(await countOf("answers", "candidate = {:c}", { c: w.candidate.id })).toBe(1);

      // the review plays it: the manager's file token gives the bytes, and a Range the asked slice
      const token = await w.manager.pb.files.getToken();
      const url = w.manager.pb.files.getURL(video, video.file as string, { token });
      const whole = await fetch(url);
      expect(whole.status).toBe(200);
      expect(Buffer.compare(Buffer.from(await whole.arrayBuffer()), Buffer.from(bytes))).toBe(0);
      const ranged = await fetch(url, { headers: { Range: "bytes=100-199" } });
      expect(ranged.status).toBe(206);
      expect(ranged.headers.get("content-range")).toBe(`bytes 100-199/${bytes.length}`);
      expect(Buffer.compare(Buffer.from(await ranged.arrayBuffer()), Buffer.from(bytes.subarray(100, 200)))).toBe(0);
      // and nobody without a token
      expect((await fetch(w.manager.pb.files.getURL(video, video.file as string))).status).toBe(404);
      // a share link's video route serves it from the bucket too, Range included
      const { token: shareToken } = await createLink(w.manager.pb, { candidate: w.candidate.id });
      const shared = await fetchSharedVideo(shareToken, video.id, { Range: "bytes=0-99" });
      expect(shared.status).toBe(206);
      expect(Buffer.compare(Buffer.from(shared.bytes), Buffer.from(bytes.subarray(0, 100)))).toBe(0);
      // the take's staged parts (local disk by design) are gone once the answer is stored
      expect(readdirSync(join(server!.dataDir, "screenroom_takes"))).toEqual([]);

      // the media worker downloads it through the API, remuxes it and stores the seekable file in its place
      const worker = new MediaWorker(workerConfig(), { log: () => {} });
      await worker.signIn();
      expect(await worker.process(video.id)).toEqual({ result: "done", retryInMs: 0 });
      const su = await admin();
      const processed = await su.collection("video_answers").getOne(video.id);
      expect(processed).toMatchObject({ transcriptStatus: "done", transcriptAttempts: 1 });
      expect(processed.durationSeconds).toBeGreaterThan(6);
      expect(processed.file).not.toBe(video.file);
      // the bucket holds the remuxed file only: the upload it replaced is deleted
      expect(await listKeys(target, `${video.collectionId}/${video.id}/`)).toEqual([keyOf(processed)]);
      const served = await fetch(su.files.getURL(processed, processed.file as string, { token: await su.files.getToken() }));
      expect(served.status).toBe(200);
      expect(Buffer.compare(Buffer.from(await served.arrayBuffer()), await getObject(target, keyOf(processed)))).toBe(0);

      // the candidate is deleted: their answers' objects are gone from the bucket, the company's logo stays
      // (PocketBase deletes a deleted record's objects in the background, after the delete's transaction)
      await w.manager.pb.collection("candidates").delete(w.candidate.id, { query: { deleteAnswers: "true" } });
      expect(await countOf("video_answers", "id = {:id}", { id: video.id })).toBe(0);
      await keysBecome(`${video.collectionId}/${video.id}/`, []);
      expect(await listKeys(target, `${w.company.collectionId}/${w.company.id}/`)).toEqual([keyOf(w.company, w.company.logo as string)]);
      // the logo's thumbnail (share links show it) is made from the bucket's file and kept in the bucket beside it
      const thumb = await fetch(`${server!.url}/api/files/companies/${w.company.id}/${w.company.logo as string}?thumb=100x100`);
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get("content-type")).toBe("image/png");
      await keysBecome(`${w.company.collectionId}/${w.company.id}/thumbs_`, [
        `${w.company.collectionId}/${w.company.id}/thumbs_${w.company.logo as string}/100x100_${w.company.logo as string}`,
      ]);
    },
    240_000,
  );

  it("refuses to start with S3_BUCKET but no endpoint or credentials, rather than storing on local disk", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "screenroom-s3-misconfigured-"));
    try {
      await expect(startPocketBase({ port: await freePort(), dataDir, publicDir: join(dataDir, "public"), env: { S3_BUCKET: "screenroom" } })).rejects.toThrow(
        /S3_BUCKET is set, but S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET are not/,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("the length check reads the stored file from the bucket: a recording longer than the time allowed is refused and not kept", async () => {
    const w = await world("s3-long");
    const short = await createQuestion(w.manager.pb, w.company.id, "video", { timeout: 5 });
    await w.manager.pb.collection("jobs").update(w.job.id, { questions: [...(w.job.questions as string[]), short.question.id] });
    const candidate = await newCandidateOf(w, "s3-long");
    const before = await listKeys(target);

    // about 13 s of speech against 5 s + 3 s of tolerance
    const bytes = new Uint8Array(readFileSync(recordingOfClips([CLIP, SECOND_CLIP], 3)));
    const err = await errorOf(() => stagedAnswer(candidate, short.question.id, bytes));
    expect(err.status).toBe(403);
    expect(err.response.data).toMatchObject({ interview: { code: "answer_too_long" } });
    expect(await countOf("answers", "candidate = {:c}", { c: candidate })).toBe(0);
    // the refusal rolled back the stored file: no new object
    expect(await listKeys(target)).toEqual(before);
  });

  it("export streams a video from the bucket, and erasure leaves no object of the candidate's (issue 19 point 6)", async () => {
    const w = await world("s3-erase");
    const { record } = await postAnswer(asCandidate(w.candidate.id), { id: randomId(), candidate: w.candidate.id, question: w.video.question.id, file: webmFile() });
    const key = keyOf(record);
    await keysBecome(`${record.collectionId}/${record.id}/`, [key]);
    const stored = await getObject(target, key);

    const res = await fetch(`${server!.url}/api/screenroom/candidates/${w.candidate.id}/export`, { headers: { Authorization: w.manager.pb.authStore.token } });
    expect(res.status).toBe(200);
    const zip = readZip(Buffer.from(await res.arrayBuffer()));
    const exported = [...zip.entries()].find(([name]) => name.startsWith("videos/"));
    expect(exported?.[0]).toBe(`videos/1-${record.answer as string}.webm`);
    expect(Buffer.compare(exported![1], Buffer.from(stored))).toBe(0);

    await w.manager.pb.send(`/api/screenroom/candidates/${w.candidate.id}/erase`, { method: "POST" });
    await keysBecome(`${record.collectionId}/${record.id}/`, []);
    expect(await countOf("answers", "candidate = {:c}", { c: w.candidate.id })).toBe(0);
  });
});
