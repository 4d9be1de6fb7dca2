// durability: what "confirmed means durable" (issue 26) costs an answer request. The same requests against a
// PocketBase as deployed (synchronous=FULL, every stored file, part and folder fsynced) and against one started
// with SCREENROOM_DURABILITY=off (PocketBase's own synchronous=NORMAL, nothing fsynced: the "before"), each on a data
// dir on the project's disk (not a tmpfs, where an fsync costs nothing). Per mode: the median of RUNS requests of a
// 1 MB staged part, a 20 MB whole-file answer (the upload bench's recording), and the submit of a 20 MB take staged in 1 MB parts. No budget: the
// figures are printed for the note. `node scripts/bench/durability.mjs` runs it alone.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import PocketBase from "pocketbase";
import { freePort, root, startPocketBase, UNTHROTTLED } from "../lib/pocketbase.mjs";
import { benchAnswer } from "./upload.mjs";

const SU = { email: "durability-bench@screenroom.test", password: "durability-bench-password" };
const RUNS = Number(process.env.DURABILITY_RUNS || 7);
const MB = 1024 * 1024;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function randomKey(length) {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(Math.random() * alphabet.length)];
  return out;
}

/** A job with one video question (5 takes) and `count` candidates with their keys. */
async function seed(url, count) {
  const su = new PocketBase(url);
  su.autoCancellation(false);
  await su.collection("_superusers").authWithPassword(SU.email, SU.password);
  const user = await su.collection("users").create({ email: `bench-${randomKey(6)}@bench.example.com`, password: "bench-password-123", passwordConfirm: "bench-password-123", verified: true, firstName: "Bench", lastName: "Manager" });
  const company = await su.collection("companies").create({
    name: "Durability Corp",
    website: "https://bench.example.com",
    logo: new File([readFileSync(join(root, "tests", "fixtures", "logo.png"))], "logo.png", { type: "image/png" }),
    managers: [user.id],
  });
  const question = await su.collection("questions").create({ company: company.id, title: "Tell us about you", description: "A benchmark question", timeout: 600 });
  await su.collection("video_questions").create({ question: question.id, takes: 5 });
  const job = await su.collection("jobs").create({ company: company.id, title: "Bench job", description: "A benchmark job", location: "Remote", questions: [question.id] });
  const candidates = [];
  for (let n = 0; n < count; n++) {
    const secret = randomKey(40);
    const c = await su.collection("candidates").create({ job: job.id, secret, email: `durability-${n}-${randomKey(6)}@bench.example.com`, consentedAt: new Date().toISOString().replace("T", " ") });
    candidates.push({ id: c.id, secret });
  }
  return { question: question.id, candidates };
}

async function timed(fn) {
  const started = performance.now();
  const res = await fn();
  const ms = performance.now() - started;
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
  return ms;
}

const putPart = (url, key, take, offset, bytes, question) =>
  fetch(`${url}/api/screenroom/takes/${take}/parts/${offset}?question=${question}`, {
    method: "PUT",
    body: bytes,
    headers: { "X-Candidate-Key": key, "Content-Type": "application/octet-stream" },
  });

function answerForm(fields) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

/** The figures of one mode: { partMs, wholeMs, submitMs } medians and their runs. */
async function measure(durable, video) {
  const dataDir = mkdtempSync(join(root, ".cache", "bench", "durability-"));
  const pb = await startPocketBase({
    port: await freePort(),
    dataDir,
    publicDir: join(dataDir, "public"),
    superuser: SU,
    env: { ...UNTHROTTLED, APP_URL: "http://bench.invalid", SMTP_HOST: "127.0.0.1", SMTP_PORT: String(await freePort()), ...(durable ? {} : { SCREENROOM_DURABILITY: "off" }) },
  });
  try {
    const { question, candidates } = await seed(pb.url, 2 * (RUNS + 1));
    const runs = { part: [], whole: [], submit: [] };
    for (let n = 0; n <= RUNS; n++) {
      const warmUp = n === 0;
      // a whole file
      const a = candidates[2 * n];
      const whole = await timed(() =>
        fetch(`${pb.url}/api/screenroom/answers`, {
          method: "POST",
          body: answerForm({ id: randomKey(15), question, file: new File([video], "answer.webm", { type: "video/webm" }) }),
          headers: { "X-Candidate-Key": a.secret },
        }),
      );
      // a take in 1 MB parts (the first part's time is the part's figure), then its submit
      const b = candidates[2 * n + 1];
      const take = randomKey(15);
      let part = 0;
      for (let offset = 0; offset < video.length; offset += MB) {
        const ms = await timed(() => putPart(pb.url, b.secret, take, offset, video.subarray(offset, offset + MB), question));
        if (offset === MB) part = ms; // not the first: that one also makes the take's row and folder
      }
      const submit = await timed(() =>
        fetch(`${pb.url}/api/screenroom/answers`, {
          method: "POST",
          body: JSON.stringify({ id: take, question, staged: true, size: video.length, fileName: "answer.webm" }),
          headers: { "X-Candidate-Key": b.secret, "Content-Type": "application/json" },
        }),
      );
      if (warmUp) continue;
      runs.part.push(Math.round(part));
      runs.whole.push(Math.round(whole));
      runs.submit.push(Math.round(submit));
    }
    return { partMs: median(runs.part), wholeMs: median(runs.whole), submitMs: median(runs.submit), runs };
  } finally {
    await pb.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** { durable, before }: each mode's medians; before runs first, then durable, on the same data disk. */
export async function durabilityCost() {
  mkdirSync(join(root, ".cache", "bench"), { recursive: true });
  // the upload bench's recording of about 20 MB
  const video = new Uint8Array(readFileSync(benchAnswer().path));
  const before = await measure(false, video);
  const durable = await measure(true, video);
  return { before, durable, runs: RUNS };
}

export function printDurability(d) {
  console.log(`\nConfirmed means durable: answer request cost, median of ${d.runs} (before: synchronous=NORMAL, no fsync; now: FULL + fsync)`);
  for (const [label, key] of [
    ["1 MB staged part (PUT)", "partMs"],
    ["20 MB whole-file answer (POST)", "wholeMs"],
    ["submit of a 20 MB staged take", "submitMs"],
  ]) {
    console.log(`  ${label.padEnd(32)} before ${String(d.before[key]).padStart(5)} ms   now ${String(d.durable[key]).padStart(5)} ms   (+${d.durable[key] - d.before[key]} ms)`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const figures = await durabilityCost();
    printDurability(figures);
    console.log(JSON.stringify(figures));
  } catch (err) {
    console.error(`durability bench failed: ${err.message} ${JSON.stringify(err.response ?? {})}`);
    process.exit(1);
  }
}
