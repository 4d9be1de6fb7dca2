// `node scripts/bench/fifty-at-once.mjs [--candidates=50] [--seconds=120] [--mb=N] [--whole | --mix | --paths=a,b]`:
// fifty candidates send a 2-minute answer at the same time against one PocketBase (issue 20 point 5), the way the
// interview's client does (src/features/interview/api/answer-transport.ts), each path on a PocketBase of its own (own
// port, own data), so one path's memory does not count in another's (`--paths=` names the paths to run):
//   - parts: the normal path. Each take goes up while it records, a part a second (the recorder's timeslice) at the
//     pace of a recording, the last part marked, then the small request naming the staged take.
//   - resume: the fallback. The page is reloaded halfway through (the parts of the first half are on the server),
//     and the stored copy goes on from the bytes the server holds: GET the take, the rest in parts of at most 2 MB
//     back to back, then the small request. Before issue 20 this path sent the whole file in one request.
//   - whole (only with --whole, for information): the whole file in one multipart request each, all at once, as
//     that old fallback did and as PocketBase's own multipart create does.
//   - mixed (`--mix`, instead of the paths above; `--candidates=200 --mix --mb=15` is the storm of four times the
//     load): every other candidate sends parts as recorded (then the small request), the others record as long and
//     send the whole file in one multipart request when they stop, as the client's fallback does after a refused
//     part: the whole files and the staged takes' requests all arrive in the same second.
// Printed for each path: answers stored, failed (a request refused) and lost (confirmed to the candidate, yet no
// answer stored with exactly the bytes sent: each confirmed answer's stored file is compared with them), the peak
// resident memory of the server and every process it started (VmRSS sampled every 50 ms; and the kernel's VmHWM of
// PocketBase), the peak size of the staging dir and of the server's temporary dir (TMPDIR, where a whole file waits
// while it is received) and what was left in it, and the p50/p95/max of a manager's review read
// (GET /api/screenroom/reviews/{candidate}) made one after another while the answers arrive, over the whole run and
// over its last burst (from the first answer's request after the recording to the last confirmation); and the
// machine's load average. Budgets: 0 failed, 0 lost, peak RSS ≤ 512 MB, review p95 ≤ 100 ms; exit code 1 when a
// path other than whole misses one. The answer: a WebM made once with ffmpeg (320x180 noise at 15 frames a second and
// a tone, ~16 MB for 2 minutes; `--mb=N` sizes it to about N MB), cached in .cache/bench.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import PocketBase from "pocketbase";
import { childPids, freePort, root, startPocketBase, UNTHROTTLED } from "../lib/pocketbase.mjs";
import { logoFile, randomId } from "../seed.mjs";
import { round } from "./numbers.mjs";

const arg = (name, fallback) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split("=")[1]) : fallback;
};
const CANDIDATES = arg("candidates", 50);
const SECONDS = arg("seconds", 120);
const ANSWER_MB = arg("mb", 0);
const NAMED_PATHS = process.argv.find((a) => a.startsWith("--paths="))?.slice("--paths=".length).split(",");
const PATHS =
  NAMED_PATHS ?? (process.argv.includes("--mix") ? ["mixed"] : ["parts", "resume", ...(process.argv.includes("--whole") ? ["whole"] : [])]);
const unknownPath = PATHS.find((p) => !["parts", "resume", "whole", "mixed"].includes(p));
if (unknownPath) throw new Error(`--paths takes parts, resume, whole and mixed, not ${unknownPath}`);
const BUDGET = { rssMb: 512, reviewP95Ms: 100 };
const SU = { email: "fifty-probe@screenroom.test", password: "fifty-probe-password" };
const MANAGER = { email: "fifty-manager@screenroom.test", password: "fifty-manager-password" };
/** The client's largest part (src/features/interview/upload/take-stager.ts PART_MAX_BYTES). */
const PART_MAX_BYTES = 2 * 1024 * 1024;
const KEY_HEADER = "X-Candidate-Key";

/** The video's frame rate: noise is encoded at the codec's quality floor, so the size follows the frames, not the bitrate asked. */
const FRAMES_PER_SECOND = 15;

function encodeAnswer(path, fps) {
  const made = spawnSync("ffmpeg", ["-loglevel", "error", "-y",
    "-f", "lavfi", "-i", `nullsrc=s=320x180:r=${fps.toFixed(2)},geq=random(1)*255:128:128`,
    "-f", "lavfi", "-i", "sine=frequency=300:sample_rate=48000",
    "-t", String(SECONDS), "-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8",
    "-b:v", "700k", "-minrate", "700k", "-maxrate", "700k", "-bufsize", "700k",
    "-c:a", "libopus", "-b:a", "48k", "-shortest", path], { stdio: "inherit" });
  if (made.status !== 0) throw new Error("ffmpeg could not make the answer");
  return statSync(path).size;
}

/**
 * The answer, made once: its bytes. Noise keeps the size a camera's (a test pattern compresses to nothing). With
 * `--mb=N` the frame rate is scaled until the file is within 3% of N MB.
 */
function answerFile() {
  const path = join(root, ".cache", "bench", `answer-${SECONDS}s${ANSWER_MB ? `-${ANSWER_MB}mb` : ""}.webm`);
  if (!existsSync(path)) {
    mkdirSync(join(root, ".cache", "bench"), { recursive: true });
    console.log(`making a ${SECONDS} s answer with ffmpeg (once, cached in .cache/bench)…`);
    // made beside it and renamed when done, so an interrupted run leaves no short answer in the cache
    const making = path.replace(/\.webm$/, ".making.webm");
    let fps = FRAMES_PER_SECOND;
    let size = encodeAnswer(making, fps);
    for (let tries = 0; ANSWER_MB && Math.abs(size / (ANSWER_MB * 1024 * 1024) - 1) > 0.03 && tries < 3; tries++) {
      fps *= (ANSWER_MB * 1024 * 1024) / size;
      size = encodeAnswer(making, fps);
    }
    renameSync(making, path);
  }
  return new Uint8Array(readFileSync(path));
}

/** PocketBase's resident memory now, and its peak so far (the kernel's high-water mark), in MB. */
function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
    return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}

/** The resident memory of a process and of every process under it (ffprobe, when the server starts one), in MB. */
function treeRss(pid) {
  let total = 0;
  const pending = [pid];
  while (pending.length) {
    const next = pending.pop();
    total += memoryOf(next).rss;
    pending.push(...childPids(next));
  }
  return total;
}

function dirBytes(dir) {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    try {
      total += entry.isDirectory() ? dirBytes(path) : statSync(path).size;
    } catch {
      // a part removed while it was counted
    }
  }
  return total;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
}

/** A company, a manager, a video question of 3 minutes and a job; `CANDIDATES` candidates who agreed and opened it. */
async function setUp(url) {
  const su = new PocketBase(url);
  su.autoCancellation(false);
  await su.collection("_superusers").authWithPassword(SU.email, SU.password);
  const user = await su.collection("users").create({ ...MANAGER, passwordConfirm: MANAGER.password, firstName: "Fifty", lastName: "Probe", verified: true });
  const company = await su.collection("companies").create({ name: "Fifty probe", website: "https://probe.example.com", logo: logoFile(), managers: [user.id] });
  const question = await su.collection("questions").create({ company: company.id, title: "Tell us", description: "About yourself", timeout: SECONDS + 60 });
  await su.collection("video_questions").create({ question: question.id, takes: 2 });
  const job = await su.collection("jobs").create({ company: company.id, title: "Probe job", description: "A job", location: "Remote", questions: [question.id] });
  const candidates = [];
  for (let i = 0; i < CANDIDATES; i++) {
    const record = await su.collection("candidates").create({ job: job.id, email: `candidate-${randomId()}@probe.example.com` });
    const key = record.secret;
    const headers = { [KEY_HEADER]: key };
    for (const path of [`/api/screenroom/interviews/${key}/consent`, `/api/screenroom/interviews/${key}/questions/${question.id}/open`]) {
      const res = await fetch(url + path, { method: "POST", headers });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    }
    candidates.push({ id: record.id, key, headers });
  }
  const manager = new PocketBase(url);
  await manager.collection("users").authWithPassword(MANAGER.email, MANAGER.password);
  return { su, question: question.id, candidates, managerToken: manager.authStore.token };
}

/** fetch, its failure named by the request it was (fetch's own "fetch failed" says why only in its cause). */
async function send(what, url, init) {
  try {
    return await fetch(url, init);
  } catch (err) {
    throw new Error(`${what}: ${err.message}${err.cause ? ` (${err.cause.code ?? err.cause.message})` : ""}`);
  }
}

async function putPart(url, candidate, question, takeId, offset, data, ms, last) {
  const query = new URLSearchParams({ question, ms: String(ms) });
  if (last) query.set("last", "1");
  const res = await send(last ? "last part" : "part", `${url}/api/screenroom/takes/${takeId}/parts/${offset}?${query}`, {
    method: "PUT",
    headers: { ...candidate.headers, "Content-Type": "application/octet-stream" },
    body: data,
  });
  if (!res.ok) throw new Error(`part: ${res.status} ${await res.text()}`);
}

async function submitStaged(url, candidate, question, takeId, size) {
  const res = await send("staged answer", `${url}/api/screenroom/answers`, {
    method: "POST",
    headers: { ...candidate.headers, "Content-Type": "application/json" },
    body: JSON.stringify({ id: takeId, candidate: candidate.id, question, staged: true, size, fileName: "answer.webm" }),
  });
  if (!res.ok) throw new Error(`answer: ${res.status} ${await res.text()}`);
}

/** The stage at which a candidate's answer is sent, for the burst's window: the first request after the recording. */
const burst = { from: Infinity, to: 0 };

/**
 * One candidate's answer by `path` ("parts", "resume" or "whole"; "wholeAtStop": recorded as long as the parts, then
 * sent whole); resolves with the answer's id when the server confirmed it, rejects with what went wrong.
 */
async function answer(url, path, candidate, question, bytes) {
  const takeId = randomId();
  const perSecond = Math.ceil(bytes.length / SECONDS);
  const confirmed = () => {
    burst.to = Math.max(burst.to, performance.now());
    return takeId;
  };
  if (path === "whole" || path === "wholeAtStop") {
    if (path === "wholeAtStop") await sleep(SECONDS * 1000);
    const form = new FormData();
    form.append("id", takeId);
    form.append("candidate", candidate.id);
    form.append("question", question);
    form.append("file", new Blob([bytes], { type: "video/webm" }), "answer.webm");
    burst.from = Math.min(burst.from, performance.now());
    const res = await send("whole answer", `${url}/api/screenroom/answers`, { method: "POST", headers: candidate.headers, body: form });
    if (!res.ok) throw new Error(`whole answer: ${res.status} ${await res.text()}`);
    return confirmed();
  }
  // the recording: a part a second, at the pace it is recorded; `resume` stops halfway (the page is reloaded)
  const recordedSeconds = path === "resume" ? Math.floor(SECONDS / 2) : SECONDS;
  const started = performance.now();
  let offset = 0;
  for (let second = 1; second <= recordedSeconds; second++) {
    await sleep(Math.max(0, started + second * 1000 - performance.now()));
    const end = Math.min(bytes.length, offset + perSecond);
    const last = path === "parts" && second === SECONDS;
    if (last) burst.from = Math.min(burst.from, performance.now());
    await putPart(url, candidate, question, takeId, offset, bytes.subarray(offset, end), second * 1000, last);
    offset = end;
  }
  if (path === "resume") {
    // after the reload: ask the server which bytes it holds, send the rest in parts, as answer-transport.ts does
    burst.from = Math.min(burst.from, performance.now());
    const res = await fetch(`${url}/api/screenroom/takes/${takeId}`, { headers: candidate.headers });
    if (!res.ok) throw new Error(`held take: ${res.status} ${await res.text()}`);
    let sent = (await res.json()).bytes;
    do {
      const end = Math.min(bytes.length, sent + PART_MAX_BYTES);
      await putPart(url, candidate, question, takeId, sent, bytes.subarray(sent, end), SECONDS * 1000, end === bytes.length);
      sent = end;
    } while (sent < bytes.length);
  }
  await submitStaged(url, candidate, question, takeId, bytes.length);
  return confirmed();
}

/** How each candidate of a run sends its answer: one path for all, or, mixed, every other one whole at the end. */
const howSent = (path, i) => (path === "mixed" ? (i % 2 === 0 ? "parts" : "wholeAtStop") : path);

/**
 * The confirmed answers the server does not hold with exactly the bytes sent: each one's video answer record, and its
 * stored file (local storage in the data dir) compared with the sent bytes by size and SHA-256.
 */
async function lostAnswers(url, dataDir, confirmedIds, bytes) {
  const su = new PocketBase(url);
  su.autoCancellation(false);
  await su.collection("_superusers").authWithPassword(SU.email, SU.password);
  const collection = await su.collections.getOne("video_answers");
  const sent = createHash("sha256").update(bytes).digest("hex");
  const lost = [];
  for (const id of confirmedIds) {
    const kind = await su.collection("video_answers").getFirstListItem(su.filter("answer = {:id}", { id })).catch(() => null);
    const file = kind?.file ? join(dataDir, "storage", collection.id, kind.id, kind.file) : null;
    const stored = file && existsSync(file) ? readFileSync(file) : null;
    if (!stored || stored.length !== bytes.length || createHash("sha256").update(stored).digest("hex") !== sent) {
      lost.push(`${id}: ${!kind ? "no video answer" : !stored ? "no file" : `${stored.length} bytes stored, not the ${bytes.length} sent`}`);
    }
  }
  return lost;
}

// the review reader's thread: reads until told to stop, then posts every read's start (epoch ms) and time
const REVIEW_READER = `
const { parentPort, workerData } = require("node:worker_threads");
let reading = true;
parentPort.on("message", () => { reading = false; });
(async () => {
  const times = [];
  while (reading) {
    const at = performance.timeOrigin + performance.now();
    const res = await fetch(workerData.url, { headers: { authorization: workerData.token } });
    await res.arrayBuffer();
    if (!res.ok) return parentPort.postMessage({ error: "review: " + res.status });
    times.push({ at, ms: performance.timeOrigin + performance.now() - at });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  parentPort.postMessage({ times });
})();
`;

/** p50 / p95 / max of the review reads' times in ms. */
function readFigures(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return { reads: sorted.length, p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), max: round(sorted.at(-1) ?? NaN) };
}

async function runPath(path, bytes) {
  const dataDir = mkdtempSync(join(tmpdir(), `screenroom-fifty-${path}-`));
  // the server's own temporary dir, measured: where a whole file waits while it is received
  const serverTmp = join(dataDir, "tmp");
  mkdirSync(serverTmp);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // MAIL_QUEUE_HOLD: the candidates' invitations wait in the queue, as the latency bench's do (no mail server here to
  // refuse them and no retries taking the core during the run)
  const server = await startPocketBase({ port, dataDir, superuser: SU, env: { ...UNTHROTTLED, TMPDIR: serverTmp, MAIL_QUEUE_HOLD: "1" } });
  burst.from = Infinity;
  burst.to = 0;
  try {
    const { question, candidates, managerToken } = await setUp(url);
    const pid = server.child.pid;
    let peakRss = 0;
    let peakStaging = 0;
    let peakTmp = 0;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, treeRss(pid));
      peakStaging = Math.max(peakStaging, dirBytes(join(dataDir, "screenroom_takes")));
      peakTmp = Math.max(peakTmp, dirBytes(serverTmp));
    }, 50);
    // the manager reads a candidate's review over and over while the answers arrive, in a thread of its own: in this
    // one the 200 uploads' streams and the sampler's walks of the staging dir would delay the reads by the bench's own
    // work (a read's time is from its request to the last byte of its answer, on the epoch's clock)
    const reader = new Worker(REVIEW_READER, { eval: true, workerData: { url: `${url}/api/screenroom/reviews/${candidates[0].id}`, token: managerToken } });
    const reading = new Promise((resolve, reject) => {
      reader.once("message", (message) => (message.error ? reject(new Error(message.error)) : resolve(message.times)));
      reader.once("error", reject);
    });
    const loadBefore = loadavg()[0];
    const started = performance.now();
    // the candidates start within the first second, as fifty people pressing Start would
    const results = await Promise.allSettled(
      candidates.map(async (candidate, i) => {
        await sleep((i * 1000) / candidates.length);
        return answer(url, howSent(path, i), candidate, question, bytes);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const loadAfter = loadavg()[0];
    reader.postMessage("stop");
    const reviews = await reading;
    await reader.terminate();
    clearInterval(sampler);
    const failures = results.filter((r) => r.status === "rejected").map((r) => String(r.reason?.message ?? r.reason));
    const byMessage = new Map();
    for (const f of failures) byMessage.set(f, (byMessage.get(f) ?? 0) + 1);
    const failureCounts = [...byMessage].map(([f, n]) => `${n} × ${f}`);
    const confirmedIds = results.filter((r) => r.status === "fulfilled").map((r) => r.value);
    const su = new PocketBase(url);
    await su.collection("_superusers").authWithPassword(SU.email, SU.password);
    const stored = (await su.collection("video_answers").getList(1, 1, { filter: "file != ''" })).totalItems;
    const lost = await lostAnswers(url, dataDir, confirmedIds, bytes);
    if (failures.length) console.log(`the server's output, its end:\n${server.output().slice(-3000)}`);
    return {
      path,
      stored,
      confirmed: confirmedIds.length,
      failed: failures.length,
      failures: failureCounts.slice(0, 5),
      lost: lost.length,
      lostExamples: lost.slice(0, 3),
      seconds: round(seconds),
      peakRssMb: round(peakRss),
      hwmMb: round(memoryOf(pid).hwm),
      peakStagingMb: round(peakStaging / 1024 / 1024),
      peakTmpMb: round(peakTmp / 1024 / 1024),
      tmpLeftMb: round(dirBytes(serverTmp) / 1024 / 1024),
      review: readFigures(reviews.map((r) => r.ms)),
      burstSeconds: round((burst.to - burst.from) / 1000),
      // the three slowest reads: seconds from the run's start, and ms
      slowestReviews: [...reviews].sort((a, b) => b.ms - a.ms).slice(0, 3).map((r) => [round((r.at - performance.timeOrigin - started) / 1000), round(r.ms)]),
      burstReview: readFigures(reviews.filter((r) => r.at >= performance.timeOrigin + burst.from && r.at <= performance.timeOrigin + burst.to).map((r) => r.ms)),
      load: { before: round(loadBefore), after: round(loadAfter) },
    };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const bytes = answerFile();
console.log(
  `${CANDIDATES} candidates, a ${SECONDS} s answer of ${round(bytes.length / 1024 / 1024)} MB each, one PocketBase per path` +
    (PATHS[0] === "mixed" ? " (mixed: every other candidate sends the whole file when the recording stops)" : ""),
);
const rows = [];
for (const path of PATHS) {
  console.log(`path ${path}…`);
  rows.push(await runPath(path, bytes));
}
console.log("");
console.log(
  "path      stored  confirmed  failed  lost  time s  peak RSS MB  VmHWM MB  staging MB  tmp MB (left)  review p50 / p95 / max ms (reads)  burst s: p50 / p95 / max ms (reads)  load",
);
for (const r of rows) {
  const reads = (f) => `${f.p50} / ${f.p95} / ${f.max} (${f.reads})`;
  console.log(
    `${r.path.padEnd(8)}  ${String(r.stored).padStart(6)}  ${String(r.confirmed).padStart(9)}  ${String(r.failed).padStart(6)}  ${String(r.lost).padStart(4)}  ` +
      `${String(r.seconds).padStart(6)}  ${String(r.peakRssMb).padStart(11)}  ${String(r.hwmMb).padStart(8)}  ${String(r.peakStagingMb).padStart(10)}  ` +
      `${`${r.peakTmpMb} (${r.tmpLeftMb})`.padStart(13)}  ${reads(r.review).padEnd(33)}  ${`${r.burstSeconds}: ${reads(r.burstReview)}`.padEnd(35)}  ${r.load.before} → ${r.load.after}`,
  );
  for (const failure of r.failures) console.log(`  ${r.path} failure: ${failure}`);
  for (const lost of r.lostExamples) console.log(`  ${r.path} lost: ${lost}`);
}
console.log(JSON.stringify({ candidates: CANDIDATES, seconds: SECONDS, bytes: bytes.length, budget: BUDGET, rows }));
const missed = rows
  .filter((r) => r.path !== "whole")
  .filter(
    (r) => r.failed > 0 || r.lost > 0 || r.stored !== CANDIDATES || r.peakRssMb > BUDGET.rssMb || r.hwmMb > BUDGET.rssMb || r.review.p95 > BUDGET.reviewP95Ms,
  );
if (missed.length) {
  console.log(`over budget: ${missed.map((r) => r.path).join(", ")} (0 failed, 0 lost, peak RSS ≤ ${BUDGET.rssMb} MB, review p95 ≤ ${BUDGET.reviewP95Ms} ms)`);
  process.exitCode = 1;
}
