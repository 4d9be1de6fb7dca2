// `node scripts/bench/worker-resume.mjs [--trials=3] [--verbose]`: how soon the media worker takes up a job that a
// PocketBase crash cut (issue 26). A PocketBase of its own (own port, own data) and the real worker (worker/run.mjs,
// its own process, with an hour-long claim lease and rescan); each trial stores a video answer, SIGKILLs PocketBase
// while the worker waits for the answer's transcript, lets the transcript come back into the dead server, starts
// PocketBase again on the same data and port, and measures from its return (its health check answering, polled every
// 20 ms) to the worker's "transcript done". Beside it, the same job without a kill (the worker's "attempt" to its
// "transcript done"). The transcriber is a stub Whisper endpoint that answers at once, so both figures are the worker's
// own (claim, download, remux, upload, write), not a speech model's. Prints
//   server return → transcript done: X ms (job alone Y ms)
// as medians, each trial's figures, and one JSON line. Exit code 1 when a trial did not end with the transcript done
// (after one attempt, with a seekable file). Run `npm ci` first (this script installs nothing).
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase from "pocketbase";
import { freePort, root, startPocketBase, stopChild, UNTHROTTLED } from "../lib/pocketbase.mjs";
import { randomId } from "../seed.mjs";
import { outputLog, videoAnswers } from "./probe-support.mjs";
import { startWorker } from "../../worker/run.mjs";

const TRIALS = Number(process.argv.find((a) => a.startsWith("--trials="))?.split("=")[1] ?? 3);
const VERBOSE = process.argv.includes("--verbose");
const SU = { email: "resume-probe@screenroom.test", password: "resume-probe-password" };
// a MediaRecorder-shaped webm (live stream, no duration) of 5 s with sound, so it is remuxed and transcribed
const RECORDING = readFileSync(join(root, "tests", "fixtures", "mediarecorder-unsized.webm"));
const TRANSCRIPT = "I would like to work with you.";
// far above any run: a trial that takes longer is reported as failed, not waited for
const TRIAL_BOUND_MS = 120_000;

/** `promise`, or a rejection after TRIAL_BOUND_MS. */
function within(promise, what) {
  let timer;
  const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${TRIAL_BOUND_MS} ms`)), TRIAL_BOUND_MS)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
};

/** A Whisper-compatible endpoint answering at once; `holdNext()` makes it keep the next request until `release()`. */
async function stubTranscriber() {
  let holding = false;
  let held;
  let arrived = () => {};
  const answer = (res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ text: TRANSCRIPT }));
  };
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (holding && !held) {
        held = res;
        arrived();
      } else answer(res);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${server.address().port}/v1/audio/transcriptions`,
    /** resolves when the next request arrives and is held */
    holdNext() {
      holding = true;
      held = undefined;
      return new Promise((resolve) => (arrived = resolve));
    },
    release() {
      holding = false;
      if (held) answer(held);
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** The first moment `url`'s health check answers OK, polled every 20 ms (startPocketBase's own poll is coarser). */
async function firstHealthy(url) {
  for (;;) {
    try {
      if ((await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1000) })).ok) return performance.now();
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}


/** Whether the trial's answer ended as it must: transcript done after one attempt, with a seekable file. */
async function verdict(su, id) {
  const record = await su.collection("video_answers").getOne(id);
  const ok = record.transcriptStatus === "done" && record.transcriptAttempts === 1 && record.durationSeconds > 4 && record.transcript === TRANSCRIPT;
  return ok ? null : `answer ${id} ended ${JSON.stringify({ status: record.transcriptStatus, attempts: record.transcriptAttempts, duration: record.durationSeconds, error: record.transcriptError })}`;
}

const dataDir = mkdtempSync(join(tmpdir(), "screenroom-resume-probe-"));
const port = await freePort();
const env = { ...UNTHROTTLED, APP_URL: "http://probe.invalid", SMTP_HOST: "127.0.0.1", SMTP_PORT: String(await freePort()) };
const serve = (superuser) => startPocketBase({ port, dataDir, publicDir: join(dataDir, "public"), superuser, env });
let pb = await serve(SU);
const transcriber = await stubTranscriber();
const log = outputLog({ boundMs: TRIAL_BOUND_MS, verbose: VERBOSE });
let worker;
const figures = { jobAloneMs: [], returnToDoneMs: [], failures: [] };
try {
  const su = new PocketBase(pb.url);
  su.autoCancellation(false);
  await su.collection("_superusers").authWithPassword(SU.email, SU.password);
  const store = await videoAnswers(su, { name: "Resume" });
  const newAnswer = () => store(RECORDING);
  worker = await startWorker({
    url: pb.url,
    superuser: SU,
    env: {
      WORKER_ID: `resume-probe-${randomId()}`,
      WORKER_LEASE_SECONDS: "3600",
      WORKER_RESCAN_SECONDS: "3600",
      TRANSCRIBE_PROVIDER: "whisper",
      TRANSCRIBE_URL: transcriber.url,
      TRANSCRIBE_API_KEY: "",
    },
    onOutput: log.onOutput,
  });
  await log.waitFor((l) => l.includes("realtime: subscribed"), "the worker's realtime subscription");

  console.log(`Worker resume probe: ${TRIALS} trial(s) of each, against PocketBase at ${pb.url}`);
  for (let trial = 1; trial <= TRIALS; trial++) {
    // the job alone: the worker's "attempt" line to its "transcript done"
    const from = log.lines.length;
    const { id } = await newAnswer();
    const started = await log.waitFor((l) => l.includes(`answer ${id}: attempt 1`), `the job of ${id} starting`, from);
    const done = await log.waitFor((l) => l.includes(`answer ${id}: transcript done`), `the job of ${id} ending`, from);
    figures.jobAloneMs.push(Math.round(done.at - started.at));
    const wrong = await verdict(su, id);
    if (wrong) figures.failures.push(`job alone ${trial}: ${wrong}`);
  }
  for (let trial = 1; trial <= TRIALS; trial++) {
    // the worker in the middle of the job: the seekable file stored, the transcript being made
    const held = transcriber.holdNext();
    const { id } = await newAnswer();
    await within(held, `the worker asking for the transcript of ${id}`);
    await stopChild(pb.child, "SIGKILL");
    const cut = log.lines.length;
    transcriber.release(); // the transcript comes back while the server is down
    try {
      await log.waitFor((l) => l.includes(id), `the worker meeting the dead server (${id})`, cut);
      const returned = firstHealthy(pb.url);
      pb = await serve(); // same data, same port; no superuser upsert (it would sign out the worker's session)
      const back = await returned;
      const done = await log.waitFor((l) => l.includes(`answer ${id}: transcript done`), `the transcript of ${id} after the restart`, cut);
      figures.returnToDoneMs.push(Math.round(done.at - back));
      const wrong = await verdict(su, id);
      if (wrong) figures.failures.push(`kill ${trial}: ${wrong}`);
    } catch (err) {
      figures.failures.push(`kill ${trial}: ${err.message}`);
      if (pb.child.exitCode !== null || pb.child.signalCode) pb = await serve();
    }
  }
} finally {
  if (worker) await stopChild(worker);
  await transcriber.close();
  await pb.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const { jobAloneMs, returnToDoneMs, failures } = figures;
console.log(`\n  job alone (no kill), attempt → transcript done:        ${jobAloneMs.join(", ")} ms`);
console.log(`  SIGKILL mid-job, server return → transcript done:     ${returnToDoneMs.join(", ")} ms`);
for (const failure of failures) console.log(`  FAILED ${failure}`);
if (returnToDoneMs.length) console.log(`\nserver return → transcript done: ${median(returnToDoneMs)} ms (job alone ${median(jobAloneMs)} ms)`);
console.log(JSON.stringify({ workerResume: { returnToDoneMs, jobAloneMs, medianReturnToDoneMs: median(returnToDoneMs), medianJobAloneMs: median(jobAloneMs), failures } }));
process.exit(failures.length || !returnToDoneMs.length ? 1 : 0);
