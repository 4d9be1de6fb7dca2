// `node scripts/bench/worker-throughput.mjs [--verbose]`: how soon one media worker has an answer's transcript ready
// after the answer is stored (issue 20 point 6: within half the answer's length, a real-time factor ≤ 0.5). A
// PocketBase of its own (own port, own data) and the real worker (worker/run.mjs, its own process) with its default
// transcriber, Debian's pocketsphinx, on this machine's cores. Two answers, made with ffmpeg as a browser records them
// (WebM, VP8 320x240 at 15 frames a second, 1 Mbit/s, Opus mono) from real speech (the LibriVox clips of Debian's
// pocketsphinx-testdata, the fake microphone's clip among them):
//   - the demo answer: the fake microphone's clip, 7 s (what the e2e journeys and the demo record);
//   - a 5-minute answer: the clips one after another, looped to 300 s.
// Each is stored by a superuser (a video_answers record with its file, as the answers route stores one); the figure
// is from the stored record's response to the worker's "transcript done" line for it, divided by the answer's length.
// Prints a table, and one JSON line; exit code 1 when a factor is over 0.5 or a transcript did not come (bound: 20
// minutes an answer). Run `npm ci` first (this script installs nothing but the fake media in .cache/media).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase from "pocketbase";
import { ensureFakeMedia, fakeAudio, librivoxDir } from "../lib/fake-media.mjs";
import { freePort, startPocketBase, stopChild, UNTHROTTLED } from "../lib/pocketbase.mjs";
import { randomId } from "../seed.mjs";
import { outputLog, videoAnswers } from "./probe-support.mjs";
import { startWorker } from "../../worker/run.mjs";

const VERBOSE = process.argv.includes("--verbose");
const SU = { email: "throughput-probe@screenroom.test", password: "throughput-probe-password" };
const BUDGET_FACTOR = 0.5;
// far above any run on this machine (a 5-minute answer): an answer that takes longer is reported, not waited for
const ANSWER_BOUND_MS = 20 * 60_000;

const work = mkdtempSync(join(tmpdir(), "screenroom-worker-throughput-"));

function ffmpeg(args) {
  const r = spawnSync("ffmpeg", ["-loglevel", "error", "-y", ...args], { stdio: "inherit" });
  if (r.status !== 0) throw new Error(`ffmpeg ${args.join(" ")} failed`);
}

function durationOf(file) {
  const r = spawnSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file], { encoding: "utf8" });
  return Number(r.stdout.trim());
}

/** A WebM as a browser records it: the test pattern and `audio` (a file, or a concat list), `seconds` long. */
function recording(name, audioArgs, seconds) {
  const file = join(work, name);
  ffmpeg([
    "-f", "lavfi", "-i", "testsrc=size=320x240:rate=15",
    ...audioArgs,
    "-t", String(seconds),
    "-map", "0:v", "-map", "1:a",
    "-c:v", "libvpx", "-b:v", "1M", "-deadline", "realtime", "-cpu-used", "8",
    "-c:a", "libopus", "-ac", "1", "-b:a", "48k",
    file,
  ]);
  return file;
}

function answers() {
  ensureFakeMedia();
  const demoSeconds = durationOf(fakeAudio);
  const demo = recording("demo.webm", ["-i", fakeAudio], demoSeconds);
  const clips = readdirSync(librivoxDir).filter((f) => f.endsWith(".wav")).sort();
  const list = join(work, "speech.txt");
  writeFileSync(list, clips.map((c) => `file '${join(librivoxDir, c)}'`).join("\n") + "\n");
  const long = recording("five-minutes.webm", ["-stream_loop", "-1", "-f", "concat", "-safe", "0", "-i", list], 300);
  return [
    { name: "demo answer", file: demo },
    { name: "5-minute answer", file: long },
  ].map((a) => ({ ...a, seconds: durationOf(a.file), bytes: readFileSync(a.file).length }));
}


const files = answers();
const dataDir = join(work, "pb_data");
const env = { ...UNTHROTTLED, APP_URL: "http://probe.invalid", SMTP_HOST: "127.0.0.1", SMTP_PORT: String(await freePort()) };
const pb = await startPocketBase({ port: await freePort(), dataDir, publicDir: join(work, "public"), superuser: SU, env });
const log = outputLog({ boundMs: ANSWER_BOUND_MS, verbose: VERBOSE });
let worker;
const results = [];
let failed = false;
try {
  const su = new PocketBase(pb.url);
  su.autoCancellation(false);
  await su.collection("_superusers").authWithPassword(SU.email, SU.password);
  const store = await videoAnswers(su, { name: "Throughput", timeout: 600 });
  worker = await startWorker({ url: pb.url, superuser: SU, env: { WORKER_ID: `throughput-probe-${randomId()}`, TRANSCRIBE_PROVIDER: "pocketsphinx" }, onOutput: log.onOutput });
  await log.waitFor((l) => l.includes("realtime: subscribed"), "the worker's realtime subscription");
  console.log(`Worker throughput: one worker (pocketsphinx), PocketBase at ${pb.url}`);
  for (const answer of files) {
    const record = await store(readFileSync(answer.file));
    const stored = performance.now();
    const done = await log.waitFor((l) => l.includes(`answer ${record.id}: transcript done`) || l.includes(`answer ${record.id}: failed`), `the transcript of the ${answer.name}`);
    const ms = Math.round(done.at - stored);
    const saved = await su.collection("video_answers").getOne(record.id);
    const words = (saved.transcript || "").split(/\s+/).filter(Boolean).length;
    const factor = Math.round((ms / 1000 / answer.seconds) * 100) / 100;
    const ok = saved.transcriptStatus === "done" && words > 0 && factor <= BUDGET_FACTOR;
    if (!ok) failed = true;
    results.push({ answer: answer.name, seconds: Math.round(answer.seconds * 10) / 10, megabytes: Math.round(answer.bytes / 1e5) / 10, readyMs: ms, factor, words, status: saved.transcriptStatus, ok });
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  failed = true;
} finally {
  if (worker) await stopChild(worker, "SIGTERM");
  await pb.stop();
  rmSync(work, { recursive: true, force: true });
}

console.log(`${"Answer".padEnd(18)} ${"length s".padStart(9)} ${"MB".padStart(6)} ${"stored → transcript ms".padStart(23)} ${"factor".padStart(7)} ${"words".padStart(6)}  budget ≤ ${BUDGET_FACTOR}`);
for (const r of results) {
  console.log(`${r.answer.padEnd(18)} ${String(r.seconds).padStart(9)} ${String(r.megabytes).padStart(6)} ${String(r.readyMs).padStart(23)} ${String(r.factor).padStart(7)} ${String(r.words).padStart(6)}  ${r.ok ? "ok" : `MISS (${r.status})`}`);
}
console.log(JSON.stringify({ workerThroughput: results }));
process.exit(failed ? 1 : 0);
