// A failed transcript asked for again, end to end against a PocketBase of this suite's own: the manager reads why it
// failed in the review (transcriptFailure; the operator's transcriptError stays hidden), asks again, and the media
// worker, already running, takes the answer from its realtime event as any pending answer; each retry is taken from the
// manager's RATE_LIMIT_TRANSCRIPT_RETRIES. The operator's `npm run requeue` (scripts/requeue.mjs, the server's
// `requeue-transcripts` command) requeues one answer or every failed one while the server runs, printing how many,
// and the server's failed-jobs gauge drops with it. Who may ask is tests/access-matrix-transcript-retry.test.ts.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, root } from "../scripts/lib/pocketbase.mjs";
import { parseExposition } from "../scripts/lib/prometheus.mjs";
import { MediaWorker } from "../worker/src/worker";
import { answerVideo, newCandidateOf, pbUrl, superuser, useOwnServer, world, type OwnServer } from "./helpers";
import { fetchMetrics, Figures, until } from "./metrics-support";
import { FIXTURES } from "./worker/media-fixtures";
import { workerConfig } from "./worker/support";

const TRANSCRIPT = "I would like to work with you.";
const FAILED = { transcriptStatus: "failed", transcriptFailure: "timed_out", transcriptError: "downloading: no answer within 30 s", transcriptAttempts: 3 };
const RETRIES = 3;

let server: OwnServer;
let metricsUrl: string;
beforeAll(async () => {
  const metricsPort = await freePort();
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  server = await useOwnServer({ RATE_LIMIT_TRANSCRIPT_RETRIES: `${RETRIES}/600`, METRICS_LISTEN: `127.0.0.1:${metricsPort}` });
});
afterAll(async () => {
  await server?.stop();
});

const fixtureFile = () => new File([readFileSync(join(FIXTURES, "mediarecorder-unsized.webm"))], "answer.webm", { type: "video/webm" });

/** A job's stored video answers, `count` candidates each answering once, then failed as a worker would leave them. */
async function failedAnswers(label: string, count: number) {
  const w = await world(label);
  const su = await superuser();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const candidate = i === 0 ? w.candidate.id : await newCandidateOf(w, `${label}-${i}`);
    const { kind } = await answerVideo(candidate, w.video.question.id, undefined, fixtureFile());
    await su.collection("video_answers").update(kind.id, FAILED);
    ids.push(kind.id);
  }
  return { w, ids };
}

async function retry(id: string, token: string) {
  const res = await fetch(`${pbUrl()}/api/screenroom/video-answers/${encodeURIComponent(id)}/transcript/retry`, {
    method: "POST",
    headers: { Authorization: token },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function stored(id: string) {
  return (await superuser()).collection("video_answers").getOne(id);
}

/** The server's screenroom_media_failed_jobs, read with Prometheus's parser (a loopback endpoint: no token). */
async function failedGauge() {
  const { status, text } = await fetchMetrics(metricsUrl, null);
  expect(status, text).toBe(200);
  return new Figures(parseExposition(text)).value("screenroom_media_failed_jobs");
}

/** `npm run requeue` on the suite's server's data dir, as an operator runs it beside the running server. */
function requeue(...args: string[]) {
  const result = spawnSync(process.execPath, [join(root, "scripts", "requeue.mjs"), `--dir=${server.dataDir}`, ...args], { encoding: "utf8" });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() };
}

describe("a failed transcript asked for again", () => {
  it("shows the manager why it failed, and once asked again the running worker makes it from the realtime event", async () => {
    const { w, ids } = await failedAnswers("retry-flow", 1);
    const id = ids[0]!;
    const review = await w.manager.pb.send(`/api/screenroom/reviews/${w.candidate.id}`, {});
    const answers = review.expand.answers_via_candidate as { expand?: { video_answers_via_answer?: Record<string, unknown> } }[];
    const shown = answers.map((a) => a.expand?.video_answers_via_answer).find((v) => v?.id === id)!;
    expect(shown).toMatchObject({ transcriptStatus: "failed", transcriptFailure: "timed_out" });
    expect(shown).not.toHaveProperty("transcriptError");

    // a worker that scans once at its start (the answer is failed then) and not again for an hour
    const worker = new MediaWorker(workerConfig({ rescanMs: 3_600_000 }), { transcriber: async () => ({ text: TRANSCRIPT, segments: null }), log: () => {} });
    await worker.start();
    try {
      expect(await stored(id)).toMatchObject({ transcriptStatus: "failed" });
      const res = await retry(id, w.manager.pb.authStore.token);
      expect(res).toMatchObject({ status: 200, body: { id, transcriptStatus: "pending", transcriptAttempts: 0, transcriptFailure: "" } });
      const done = await until(() => stored(id), (r) => r.transcriptStatus === "done", "the worker's transcript of the answer asked again");
      expect(done).toMatchObject({ transcript: TRANSCRIPT, transcriptAttempts: 1, transcriptFailure: "", transcriptError: "" });
    } finally {
      await worker.stop();
    }
  });

  it(`takes each retry from the manager's budget (${RETRIES} here): past it 429, and the transcript stays failed; another manager's budget is their own`, async () => {
    const { w, ids } = await failedAnswers("retry-budget", RETRIES + 1);
    for (const id of ids.slice(0, RETRIES)) expect((await retry(id, w.manager.pb.authStore.token)).status).toBe(200);
    const last = ids[RETRIES]!;
    expect(await retry(last, w.manager.pb.authStore.token)).toEqual({
      status: 429,
      body: { status: 429, message: "You asked for many transcripts again in a short time. Wait a few minutes, then try again.", data: {} },
    });
    expect(await stored(last)).toMatchObject(FAILED);
    const other = await failedAnswers("retry-budget-other", 1);
    expect((await retry(other.ids[0]!, other.w.manager.pb.authStore.token)).status).toBe(200);
  });
});

describe("npm run requeue", () => {
  it("requeues one failed transcript, then every failed one, saying how many; the failed-jobs gauge drops to 0", async () => {
    const { ids } = await failedAnswers("requeue", 3);
    const failedNow = async () => (await (await superuser()).collection("video_answers").getList(1, 1, { filter: 'transcriptStatus = "failed"' })).totalItems;
    const before = await failedNow();
    expect(before).toBeGreaterThanOrEqual(3);
    expect(await failedGauge()).toBe(before);

    expect(requeue(`--answer=${ids[0]}`)).toMatchObject({ status: 0, stdout: "Requeued 1 failed transcript." });
    expect(await stored(ids[0]!)).toMatchObject({ transcriptStatus: "pending", transcriptAttempts: 0, transcriptFailure: "", transcriptError: "", transcriptClaimedBy: "" });
    expect(await stored(ids[1]!)).toMatchObject(FAILED);
    expect(await failedGauge()).toBe(before - 1);

    // one that has not failed (any more) is refused, saying so, and nothing changes
    const again = requeue(`--answer=${ids[0]}`);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`the transcript of video answer ${ids[0]} has not failed (it is "pending"): nothing to requeue`);

    expect(requeue()).toMatchObject({ status: 0, stdout: `Requeued ${before - 1} failed transcripts.` });
    for (const id of ids) expect(await stored(id)).toMatchObject({ transcriptStatus: "pending", transcriptAttempts: 0 });
    expect(await failedNow()).toBe(0);
    expect(await failedGauge()).toBe(0);
    expect(requeue()).toMatchObject({ status: 0, stdout: "Requeued 0 failed transcripts." });
  });
});
