// `node scripts/bench/fifty-at-once.mjs [--candidates=50] [--seconds=120] [--whole]`: fifty candidates send a
// 2-minute answer at the same time against one PocketBase (issue 20 point 5), the way the interview's client does
// (src/features/interview/api/answer-transport.ts), each path on a PocketBase of its own (own port, own data), so
// one path's memory does not count in another's:
//   - parts: the normal path. Each take goes up while it records, a part a second (the recorder's timeslice) at the
//     pace of a recording, the last part marked, then the small request naming the staged take.
//   - resume: the fallback. The page is reloaded halfway through (the parts of the first half are on the server),
//     and the stored copy goes on from the bytes the server holds: GET the take, the rest in parts of at most 2 MB
//     back to back, then the small request. Before issue 20 this path sent the whole file in one request.
//   - whole (only with --whole, for information): the whole file in one multipart request each, all at once, as
//     that old fallback did and as PocketBase's own multipart create does.
// Printed for each path: answers stored (and failed), PocketBase's peak resident memory (VmRSS sampled every 50 ms,
// and the kernel's VmHWM), the staging dir's peak size, and the p50/p95 of a manager's review read
// (GET /api/screenroom/reviews/{candidate}) made one after another while the answers arrive. Budgets: 0 failed,
// peak RSS ≤ 512 MB, review p95 ≤ 100 ms; exit code 1 when a path of parts misses one. The answer: a 2-minute
// WebM made once with ffmpeg (320x180 noise and a tone, about 0.95 Mbit/s, ~14 MB), cached in .cache/bench.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase from "pocketbase";
import { freePort, root, startPocketBase, UNTHROTTLED } from "../lib/pocketbase.mjs";
import { logoFile, randomId } from "../seed.mjs";
import { round } from "./numbers.mjs";

const arg = (name, fallback) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split("=")[1]) : fallback;
};
const CANDIDATES = arg("candidates", 50);
const SECONDS = arg("seconds", 120);
const PATHS = ["parts", "resume", ...(process.argv.includes("--whole") ? ["whole"] : [])];
const BUDGET = { rssMb: 512, reviewP95Ms: 100 };
const SU = { email: "fifty-probe@screenroom.test", password: "fifty-probe-password" };
const MANAGER = { email: "fifty-manager@screenroom.test", password: "fifty-manager-password" };
/** The client's largest part (src/features/interview/upload/take-stager.ts PART_MAX_BYTES). */
const PART_MAX_BYTES = 2 * 1024 * 1024;
const KEY_HEADER = "X-Candidate-Key";

/** The answer, made once: { bytes, seconds }. Noise keeps the size a camera's (a test pattern compresses to nothing). */
function answerFile() {
  const path = join(root, ".cache", "bench", `answer-${SECONDS}s.webm`);
  if (!existsSync(path)) {
    mkdirSync(join(root, ".cache", "bench"), { recursive: true });
    console.log(`making a ${SECONDS} s answer with ffmpeg (once, cached in .cache/bench)…`);
    const made = spawnSync("ffmpeg", ["-loglevel", "error", "-y",
      "-f", "lavfi", "-i", "nullsrc=s=320x180:r=15,geq=random(1)*255:128:128",
      "-f", "lavfi", "-i", "sine=frequency=300:sample_rate=48000",
      "-t", String(SECONDS), "-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8",
      "-b:v", "700k", "-minrate", "700k", "-maxrate", "700k", "-bufsize", "700k",
      "-c:a", "libopus", "-b:a", "48k", "-shortest", path], { stdio: "inherit" });
    if (made.status !== 0) throw new Error("ffmpeg could not make the answer");
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

async function putPart(url, candidate, question, takeId, offset, data, ms, last) {
  const query = new URLSearchParams({ question, ms: String(ms) });
  if (last) query.set("last", "1");
  const res = await fetch(`${url}/api/screenroom/takes/${takeId}/parts/${offset}?${query}`, {
    method: "PUT",
    headers: { ...candidate.headers, "Content-Type": "application/octet-stream" },
    body: data,
  });
  if (!res.ok) throw new Error(`part ${offset}: ${res.status} ${await res.text()}`);
}

async function submitStaged(url, candidate, question, takeId, size) {
  const res = await fetch(`${url}/api/screenroom/answers`, {
    method: "POST",
    headers: { ...candidate.headers, "Content-Type": "application/json" },
    body: JSON.stringify({ id: takeId, candidate: candidate.id, question, staged: true, size, fileName: "answer.webm" }),
  });
  if (!res.ok) throw new Error(`answer: ${res.status} ${await res.text()}`);
}

/** One candidate's answer by `path`; resolves when it is stored, rejects with what went wrong. */
async function answer(url, path, candidate, question, bytes) {
  const takeId = randomId();
  const perSecond = Math.ceil(bytes.length / SECONDS);
  if (path === "whole") {
    const form = new FormData();
    form.append("id", takeId);
    form.append("candidate", candidate.id);
    form.append("question", question);
    form.append("file", new Blob([bytes], { type: "video/webm" }), "answer.webm");
    const res = await fetch(`${url}/api/screenroom/answers`, { method: "POST", headers: candidate.headers, body: form });
    if (!res.ok) throw new Error(`whole answer: ${res.status} ${await res.text()}`);
    return;
  }
  // the recording: a part a second, at the pace it is recorded; `resume` stops halfway (the page is reloaded)
  const recordedSeconds = path === "resume" ? Math.floor(SECONDS / 2) : SECONDS;
  const started = performance.now();
  let offset = 0;
  for (let second = 1; second <= recordedSeconds; second++) {
    await sleep(Math.max(0, started + second * 1000 - performance.now()));
    const end = Math.min(bytes.length, offset + perSecond);
    await putPart(url, candidate, question, takeId, offset, bytes.subarray(offset, end), second * 1000, path === "parts" && second === SECONDS);
    offset = end;
  }
  if (path === "resume") {
    // after the reload: ask the server which bytes it holds, send the rest in parts, as answer-transport.ts does
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
}

async function runPath(path, bytes) {
  const dataDir = mkdtempSync(join(tmpdir(), `screenroom-fifty-${path}-`));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startPocketBase({ port, dataDir, superuser: SU, env: UNTHROTTLED });
  try {
    const { question, candidates, managerToken } = await setUp(url);
    const pid = server.child.pid;
    let peakRss = 0;
    let peakStaging = 0;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, memoryOf(pid).rss);
      peakStaging = Math.max(peakStaging, dirBytes(join(dataDir, "screenroom_takes")));
    }, 50);
    // the manager reads a candidate's review over and over while the answers arrive
    let loading = true;
    const reviewTimes = [];
    const reviews = (async () => {
      while (loading) {
        const t = performance.now();
        const res = await fetch(`${url}/api/screenroom/reviews/${candidates[0].id}`, { headers: { authorization: managerToken } });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`review: ${res.status}`);
        reviewTimes.push(performance.now() - t);
        await sleep(100);
      }
    })();
    const started = performance.now();
    // the candidates start within the first second, as fifty people pressing Start would
    const results = await Promise.allSettled(
      candidates.map(async (candidate, i) => {
        await sleep((i * 1000) / candidates.length);
        return answer(url, path, candidate, question, bytes);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    loading = false;
    await reviews;
    clearInterval(sampler);
    const failures = results.filter((r) => r.status === "rejected").map((r) => String(r.reason?.message ?? r.reason));
    const su = new PocketBase(url);
    await su.collection("_superusers").authWithPassword(SU.email, SU.password);
    const stored = (await su.collection("video_answers").getList(1, 1, { filter: "file != ''" })).totalItems;
    reviewTimes.sort((a, b) => a - b);
    return {
      path,
      stored,
      failed: failures.length,
      failures: [...new Set(failures)].slice(0, 3),
      seconds: round(seconds),
      peakRssMb: round(peakRss),
      hwmMb: round(memoryOf(pid).hwm),
      peakStagingMb: round(peakStaging / 1024 / 1024),
      reviewReads: reviewTimes.length,
      reviewP50Ms: round(percentile(reviewTimes, 50)),
      reviewP95Ms: round(percentile(reviewTimes, 95)),
    };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const bytes = answerFile();
console.log(`${CANDIDATES} candidates, a ${SECONDS} s answer of ${round(bytes.length / 1024 / 1024)} MB each, one PocketBase per path`);
const rows = [];
for (const path of PATHS) {
  console.log(`path ${path}…`);
  rows.push(await runPath(path, bytes));
}
console.log("");
console.log("path      stored  failed  time s  peak RSS MB  VmHWM MB  staging peak MB  review p50 / p95 ms (reads)");
for (const r of rows) {
  console.log(
    `${r.path.padEnd(8)}  ${String(r.stored).padStart(6)}  ${String(r.failed).padStart(6)}  ${String(r.seconds).padStart(6)}  ` +
      `${String(r.peakRssMb).padStart(11)}  ${String(r.hwmMb).padStart(8)}  ${String(r.peakStagingMb).padStart(15)}  ` +
      `${r.reviewP50Ms} / ${r.reviewP95Ms} (${r.reviewReads})`,
  );
  for (const failure of r.failures) console.log(`  ${r.path} failure: ${failure}`);
}
console.log(JSON.stringify({ candidates: CANDIDATES, seconds: SECONDS, bytes: bytes.length, budget: BUDGET, rows }));
const missed = rows
  .filter((r) => r.path !== "whole")
  .filter((r) => r.failed > 0 || r.stored !== CANDIDATES || r.hwmMb > BUDGET.rssMb || r.reviewP95Ms > BUDGET.reviewP95Ms);
if (missed.length) {
  console.log(`over budget: ${missed.map((r) => r.path).join(", ")} (0 failed, peak RSS ≤ ${BUDGET.rssMb} MB, review p95 ≤ ${BUDGET.reviewP95Ms} ms)`);
  process.exitCode = 1;
}
