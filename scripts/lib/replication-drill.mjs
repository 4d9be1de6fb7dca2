// The restore drill, shared by its test (tests/replication.test.ts, which asserts) and its bench
// (scripts/bench/replication.mjs, which prints the loss window): a server as deployed with replication (PocketBase with
// its files on an S3 server on loopback, Litestream replicating both databases to the same S3 server), candidates
// answering with videos, then the machine lost at once (PocketBase and Litestream killed with SIGKILL while answers
// are still arriving, the data dir deleted), `npm run restore` (scripts/restore.mjs, the operator's one command), and
// PocketBase started again on what it restored.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import PocketBase from "pocketbase";
import { replicationSettings, startLitestream } from "./litestream.mjs";
import { freePort, root, startPocketBase, UNTHROTTLED } from "./pocketbase.mjs";
import { startS3Server } from "./s3server.mjs";

export const DRILL_SUPERUSER = { email: "restore-drill@screenroom.test", password: "restore-drill-password" };

/** The answer every drill candidate sends: a real WebM recording (the tests' fixture). */
export const DRILL_VIDEO = readFileSync(join(root, "tests", "fixtures", "answer.webm"));

const randomKey = (length) => {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(Math.random() * alphabet.length)];
  return out;
};

/** Creates the bucket (PUT /bucket) with a SigV4-signed request. */
async function createBucket(s3) {
  const { createHash, createHmac } = await import("node:crypto");
  const url = new URL(s3.url);
  const amzDate = new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
  const day = amzDate.slice(0, 8);
  const payloadHash = createHash("sha256").update("").digest("hex");
  const headers = { host: url.host, "x-amz-content-sha256": payloadHash, "x-amz-date": amzDate };
  const signed = Object.keys(headers).sort();
  const canonical = ["PUT", `/${s3.bucket}`, "", signed.map((k) => `${k}:${headers[k]}\n`).join(""), signed.join(";"), payloadHash].join("\n");
  const scope = `${day}/${s3.region}/s3/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, createHash("sha256").update(canonical).digest("hex")].join("\n");
  let key = createHmac("sha256", `AWS4${s3.secret}`).update(day).digest();
  for (const part of [s3.region, "s3", "aws4_request"]) key = createHmac("sha256", key).update(part).digest();
  const signature = createHmac("sha256", key).update(toSign).digest("hex");
  const res = await fetch(`${s3.url}/${s3.bucket}`, {
    method: "PUT",
    headers: { ...headers, authorization: `AWS4-HMAC-SHA256 Credential=${s3.accessKey}/${scope}, SignedHeaders=${signed.join(";")}, Signature=${signature}` },
  });
  if (!res.ok) throw new Error(`CreateBucket ${res.status}: ${await res.text()}`);
}

/**
 * Starts the S3 server (a bucket for the files and the replica), PocketBase on `workDir`/data with REPLICA_URL set,
 * and Litestream beside it. `syncInterval` is REPLICA_SYNC_INTERVAL.
 * @param {{ workDir: string, syncInterval?: string }} options
 */
export async function startDrillStack({ workDir, syncInterval = "1s" }) {
  const s3 = await startS3Server({ port: await freePort(), dataDir: join(workDir, "s3") });
  await createBucket(s3);
  const dataDir = join(workDir, "data");
  mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  // the variables an operator sets (.env.example): the files' bucket, and the replica in the same bucket, which
  // takes the S3_* endpoint, region, keys and path style
  const env = {
    ...s3.env,
    REPLICA_URL: `s3://${s3.bucket}/replica`,
    REPLICA_SYNC_INTERVAL: syncInterval,
    REPLICA_METRICS_ADDR: `127.0.0.1:${await freePort()}`,
    PB_DATA_DIR: dataDir,
    PB_HTTP: `127.0.0.1:${port}`,
  };
  const settings = replicationSettings(env, dataDir);
  if (!settings) throw new Error("REPLICA_URL is set: replication must be on");
  const serverEnv = { ...UNTHROTTLED, ...env, APP_URL: "http://drill.invalid", SMTP_HOST: "127.0.0.1", SMTP_PORT: String(await freePort()) };

  let pb;
  let litestream;
  const startServer = async ({ superuser } = {}) => {
    pb = await startPocketBase({ port, dataDir, publicDir: join(workDir, "public"), superuser, env: serverEnv });
    return pb;
  };
  const startReplication = async () => {
    litestream = await startLitestream(settings);
    return litestream;
  };
  await startServer({ superuser: DRILL_SUPERUSER });
  await startReplication();

  return {
    s3,
    env,
    settings,
    dataDir,
    port,
    url: `http://127.0.0.1:${port}`,
    get pocketbase() {
      return pb;
    },
    get litestream() {
      return litestream;
    },
    startServer,
    startReplication,
    /** The machine lost: both processes SIGKILLed in the same instant; resolves with that instant (ms) once both are gone. */
    async killBoth() {
      const exited = [pb.child, litestream.child].map((child) =>
        child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", resolve)),
      );
      const at = Date.now();
      litestream.child.kill("SIGKILL");
      pb.child.kill("SIGKILL");
      await Promise.all(exited);
      return at;
    },
    /**
     * `npm run restore` (scripts/restore.mjs) as an operator runs it, with these variables (`env` replaces some:
     * another PB_DATA_DIR for a restore beside this one); `to`: --to. Resolves with its exit status, output and time.
     * @param {{ to?: string, env?: Record<string, string> }} [options]
     * @returns {Promise<{ status: number | null, output: string, ms: number }>}
     */
    restore({ to, env: other = {} } = {}) {
      // a child of its own, not spawnSync: this process reads the S3 server's and PocketBase's output, and blocked
      // it would leave their pipes full and them stuck mid-request
      const started = Date.now();
      const child = spawn(process.execPath, [join(root, "scripts", "restore.mjs"), ...(to ? [`--to=${to}`] : [])], {
        cwd: root,
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root", ...env, ...other },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
      const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
      return new Promise((resolve) => {
        child.once("close", (status, signal) => {
          clearTimeout(timer);
          resolve({ status, output: signal ? `${output}\n(killed: ${signal}, after ${Date.now() - started} ms)` : output, ms: Date.now() - started });
        });
      });
    },
    async stop() {
      await litestream?.stop();
      await pb?.stop();
      await s3.stop();
    },
  };
}

/** Signs in as the drill's superuser on `url`. */
export async function drillSuperuser(url) {
  const su = new PocketBase(url);
  su.autoCancellation(false);
  await su.collection("_superusers").authWithPassword(DRILL_SUPERUSER.email, DRILL_SUPERUSER.password);
  return su;
}

/** A company with a manager, a job with one video question, and `count` consented candidates with their keys. */
export async function seedDrill(url, count) {
  const su = await drillSuperuser(url);
  const user = await su.collection("users").create({
    email: `drill-${randomKey(6)}@drill.example.com`,
    password: "drill-password-123",
    passwordConfirm: "drill-password-123",
    verified: true,
    firstName: "Drill",
    lastName: "Manager",
  });
  const company = await su.collection("companies").create({
    name: "Drill Corp",
    website: "https://drill.example.com",
    logo: new File([readFileSync(join(root, "tests", "fixtures", "logo.png"))], "logo.png", { type: "image/png" }),
    managers: [user.id],
  });
  const question = await su.collection("questions").create({ company: company.id, title: "Tell us about you", description: "A drill question", timeout: 600 });
  await su.collection("video_questions").create({ question: question.id, takes: 5 });
  const job = await su.collection("jobs").create({ company: company.id, title: "Drill job", description: "A drill job", location: "Remote", questions: [question.id] });
  const candidates = [];
  for (let n = 0; n < count; n++) {
    const secret = randomKey(40);
    const c = await su.collection("candidates").create({
      job: job.id,
      secret,
      email: `drill-${n}-${randomKey(6)}@drill.example.com`,
      consentedAt: new Date().toISOString().replace("T", " "),
    });
    candidates.push({ id: c.id, secret });
  }
  return { company: company.id, question: question.id, candidates };
}

/**
 * One candidate's video answer, as the SPA sends it (POST /api/screenroom/answers, whole file); resolves with the
 * answer's id, its video record's id and when the server confirmed it (ms), or with the error when it was not.
 */
export async function sendAnswer(url, candidate, question) {
  const id = randomKey(15);
  const form = new FormData();
  form.append("id", id);
  form.append("question", question);
  form.append("file", new File([DRILL_VIDEO], "answer.webm", { type: "video/webm" }));
  const sentAt = Date.now();
  try {
    const res = await fetch(`${url}/api/screenroom/answers`, { method: "POST", body: form, headers: { "X-Candidate-Key": candidate.secret } });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) return { id, candidate: candidate.id, sentAt, error: `${res.status} ${JSON.stringify(body)}` };
    return { id, candidate: candidate.id, sentAt, confirmedAt: Date.now(), video: body.record.id };
  } catch (err) {
    return { id, candidate: candidate.id, sentAt, error: String(err) };
  }
}

/**
 * Candidates answering, `streams` at a time, one candidate after another from `candidates`, until `stop()` is true or
 * the candidates run out; `onSend(n)`, when given, hears how many have been sent so far. Resolves with every attempt.
 * @param {string} url
 * @param {{ question: string, candidates: { id: string, secret: string }[], streams?: number, stop: () => boolean, onSend?: (sent: number) => void }} storm
 */
export async function answerStorm(url, { question, candidates, streams = 3, stop, onSend = () => {} }) {
  const attempts = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: streams }, async () => {
      while (!stop() && next < candidates.length) {
        const candidate = candidates[next++];
        onSend(next);
        attempts.push(await sendAnswer(url, candidate, question));
      }
    }),
  );
  return attempts;
}

/**
 * Small writes one after another until `stop()` is true, each as soon as the one before was confirmed (a question of
 * the drill's company titled "mark N"), for a finer clock than the answers: after the restore, the newest mark
 * present says up to when the replica held every change. Resolves with each mark's title and confirmation time.
 */
export async function writeMarks(url, { company, stop }) {
  const su = await drillSuperuser(url);
  const marks = [];
  for (let n = 0; !stop(); n++) {
    try {
      await su.collection("questions").create({ company, title: `mark ${n}`, description: "A drill mark", timeout: 60 });
      marks.push({ title: `mark ${n}`, confirmedAt: Date.now() });
    } catch {
      break; // the server is gone
    }
  }
  return marks;
}

/** The titles of the marks the restored server holds. */
export async function restoredMarks(url, company) {
  const su = await drillSuperuser(url);
  const rows = await su.collection("questions").getFullList({ filter: su.filter("company = {:company} && title ~ 'mark '", { company }), fields: "title" });
  return new Set(rows.map((row) => row.title));
}

/**
 * The loss window by the marks: the kill's time minus the newest restored mark's confirmation (the replica held
 * every change up to then), and minus the earliest lost mark's (it held none after); null without marks.
 */
export function markWindow(marks, restored, killedAt) {
  const confirmed = marks.filter((m) => m.confirmedAt <= killedAt);
  const kept = confirmed.filter((m) => restored.has(m.title));
  const lost = confirmed.filter((m) => !restored.has(m.title));
  return {
    marks: confirmed.length,
    newestKeptMsBeforeKill: kept.length ? killedAt - Math.max(...kept.map((m) => m.confirmedAt)) : null,
    earliestLostMsBeforeKill: lost.length ? killedAt - Math.min(...lost.map((m) => m.confirmedAt)) : 0,
  };
}

/**
 * What the restored server holds of each confirmed answer: its answer row, its video row, and the video's bytes
 * from the bucket (the superuser's file token) compared with what was sent.
 * @returns {Promise<Map<string, { answer: boolean, video: boolean, bytes: boolean }>>}
 */
export async function restoredAnswers(url, attempts) {
  const su = await drillSuperuser(url);
  const token = await su.files.getToken();
  const found = new Map();
  for (const attempt of attempts) {
    const answer = await su
      .collection("answers")
      .getOne(attempt.id)
      .catch(() => null);
    // by its answer: an answer in flight at the kill never told its sender its video's id
    const video = await su
      .collection("video_answers")
      .getFirstListItem(su.filter("answer = {:answer}", { answer: attempt.id }))
      .catch(() => null);
    let bytes = false;
    if (video?.file) {
      const res = await fetch(su.files.getURL(video, video.file, { token }));
      bytes = res.ok && Buffer.compare(Buffer.from(await res.arrayBuffer()), DRILL_VIDEO) === 0;
    }
    found.set(attempt.id, { answer: answer !== null, video: video !== null && (attempt.video === undefined || video.id === attempt.video), bytes });
  }
  return found;
}

/**
 * The figures of one drill. The replica held every change up to some moment before the kill: answers confirmed
 * before it come back, those confirmed after it are lost, so the loss window lies between how long before the kill
 * the earliest lost answer was confirmed (`lossWindowMs`, 0 when none was lost) and how long before it the newest
 * kept one was (`newestKeptMsBeforeKill`).
 */
export function lossOf(attempts, found, killedAt) {
  const confirmed = attempts.filter((a) => a.confirmedAt !== undefined && a.confirmedAt <= killedAt);
  const lost = confirmed.filter((a) => !found.get(a.id)?.answer);
  const kept = confirmed.filter((a) => found.get(a.id)?.answer);
  const unconfirmedKept = attempts.filter((a) => a.confirmedAt === undefined && found.get(a.id)?.answer).length;
  return {
    confirmed: confirmed.length,
    lost: lost.length,
    lossWindowMs: lost.length ? killedAt - Math.min(...lost.map((a) => a.confirmedAt)) : 0,
    newestKeptMsBeforeKill: kept.length ? killedAt - Math.max(...kept.map((a) => a.confirmedAt)) : null,
    // lost answers confirmed before a kept one: committed later, but their responses came back sooner
    lostBeforeKept: lost.filter((a) => kept.some((k) => k.confirmedAt > a.confirmedAt)).length,
    unconfirmedKept,
  };
}

/** Removes the data dir, as a lost disk does. */
export function loseDisk(dataDir) {
  rmSync(dataDir, { recursive: true, force: true });
}
