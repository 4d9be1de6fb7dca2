// Issue 26: the server dies, the answer does not. Real Chromium against a PocketBase this spec starts itself (a free
// port, a data dir of its own, the built SPA served from it: the SPA talks to the origin it is served from) with a
// media worker of its own, never the shared e2e stack's server. PocketBase is killed with SIGKILL, by the pid of the
// child this spec started, while a take's parts are staged, right after 'Submit answer' (it stored the answer, the
// browser never got its response), and while the worker holds the answer's job; it is started again on the same
// data dir and port. Each time the server ends with exactly one
// answer, its whole video (the duration that was recorded) and a finished transcript, and the candidate ends on the
// thank-you screen with nothing left to upload.
// The worker's claim lease is an hour (decisions.md "Tests that can fail"): only a real resume after the server's
// return finishes the transcript within the test, never an expired lease.
import { expect, test, type Page, type Request } from "@playwright/test";
import PocketBase, { type RecordModel } from "pocketbase";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { E2E } from "../scripts/lib/e2e-ports.mjs";
import { UNTHROTTLED, freePort, root, startPocketBase, stopChild, waitForPortFree } from "../scripts/lib/pocketbase.mjs";
import { startWorker } from "../worker/run.mjs";
import { stillSending, uploadsBox } from "./interview-support";
import { PASSWORD, consentAs, pngFile, uniqueEmail } from "./support";

// One stack for the three tests; each test has its own candidate.
test.describe.configure({ mode: "serial" });

/** Far above the slowest transcript seen, below the test's timeout. */
const TRANSCRIPT_TIMEOUT_MS = 90_000;
/** How far the stored duration may be from the time the test saw the recording run (start and stop are clicks). */
const DURATION_TOLERANCE_S = 1.5;

let dataDir = "";
let port = 0;
let server: Awaited<ReturnType<typeof startPocketBase>> | undefined;
let worker: ChildProcess | undefined;
const serverLog: string[] = [];
const workerLog: string[] = [];
let seeded: { job: RecordModel; question: RecordModel } | undefined;

const origin = () => `http://127.0.0.1:${port}`;

/** PocketBase on this spec's port and data dir, as the shared stack runs it (its superuser only on the first start). */
async function startServer(first: boolean) {
  server = await startPocketBase({
    port,
    dataDir,
    publicDir: join(root, "dist"),
    // a later start keeps the superuser as it is: an upsert would end the sessions of the worker and the test
    superuser: first ? E2E.superuser : undefined,
    env: { ...UNTHROTTLED, APP_URL: origin(), SMTP_HOST: "127.0.0.1", SMTP_PORT: String(E2E.mailSmtp) },
    onOutput: (text) => serverLog.push(text),
  });
}

/** The server dies: SIGKILL to the PocketBase this spec started (its pid only), and wait until it is gone. */
async function killServer() {
  const child = server!.child as ChildProcess;
  expect(child.exitCode, "PocketBase is running before it is killed").toBeNull();
  const gone = new Promise((resolve) => child.once("exit", resolve));
  process.kill(child.pid!, "SIGKILL");
  await gone;
  serverLog.push("\n--- SIGKILL ---\n");
}

/** Started again on the same data dir and port. */
async function restartServer() {
  await waitForPortFree(port, "PocketBase");
  await startServer(false);
}

let su: PocketBase | undefined;
/** A superuser of this spec's server; its session outlives a restart (same data dir, no upsert). */
async function superuser(): Promise<PocketBase> {
  if (su?.authStore.isValid) return su;
  su = new PocketBase(origin());
  su.autoCancellation(false);
  await su.collection("_superusers").authWithPassword(E2E.superuser.email, E2E.superuser.password);
  return su;
}

/** A manager, a company, a job with one video question (one take, time enough for a slow run). */
async function seedJob() {
  const admin = await superuser();
  const email = uniqueEmail("crash-manager");
  await admin.collection("users").create({
    email,
    password: PASSWORD,
    passwordConfirm: PASSWORD,
    firstName: "Ada",
    lastName: "Lovelace",
    emailVisibility: true,
    verified: true,
  });
  const manager = new PocketBase(origin());
  manager.autoCancellation(false);
  await manager.collection("users").authWithPassword(email, PASSWORD);
  const company = await manager
    .collection("companies")
    .create({ name: "Globex Hiring", website: "https://globex.example.com", logo: pngFile() });
  const question = await manager.collection("questions").create({
    company: company.id,
    title: "Introduce yourself",
    description: "About: Introduce yourself",
    timeout: 120,
    canPreview: true,
  });
  await manager.collection("video_questions").create({ question: question.id, takes: 1 });
  const job = await manager.collection("jobs").create({
    company: company.id,
    title: "Support engineer",
    description: "Help our customers",
    location: "Remote",
    questions: [question.id],
  });
  return { manager, job, question };
}

/** A fresh candidate of the job, and its key (the interview link's last part). */
async function newCandidate() {
  const admin = await superuser();
  const candidate = await admin.collection("candidates").create({ job: seeded!.job.id, email: uniqueEmail("crash-candidate") });
  const { secret } = await admin.collection("candidates").getOne(candidate.id, { fields: "secret" });
  // the candidate agreed on the start screen (issue 17): the journey opens the question directly
  await consentAs(secret as string, origin());
  return { candidate, key: secret as string };
}

type Stored = RecordModel & { expand?: { video_answers_via_answer?: RecordModel[] | RecordModel } };

/** The candidate's answers to the question, with their video records, as a superuser reads them. */
async function answersOf(candidateId: string): Promise<Stored[]> {
  const admin = await superuser();
  return admin.collection("answers").getFullList<Stored>({
    filter: admin.filter("candidate = {:c} && question = {:q}", { c: candidateId, q: seeded!.question.id }),
    expand: "video_answers_via_answer",
    sort: "created",
  });
}

function videoOf(answer: Stored | undefined): RecordModel | undefined {
  const value = answer?.expand?.video_answers_via_answer;
  return Array.isArray(value) ? value[0] : value;
}

/**
 * What the server ends with: exactly one answer, its video record with the duration that was recorded, and a
 * finished transcript. Polls while the worker is at it.
 */
async function expectOneWholeAnswer(candidateId: string, recordedSeconds: number) {
  let video: RecordModel | undefined;
  await expect
    .poll(
      async () => {
        const answers = await answersOf(candidateId).catch(() => []);
        video = videoOf(answers[0]);
        return video?.transcriptStatus;
      },
      { timeout: TRANSCRIPT_TIMEOUT_MS, message: "the transcript of the one answer is done" },
    )
    .toBe("done");
  const answers = await answersOf(candidateId);
  expect(answers, "exactly one answer for the question").toHaveLength(1);
  const final = videoOf(answers[0])!;
  test.info().annotations.push({
    type: "duration",
    description: `recorded ${recordedSeconds.toFixed(2)} s, stored ${Number(final.durationSeconds).toFixed(2)} s (transcript attempts ${final.transcriptAttempts})`,
  });
  expect(final.file, "the video file is stored").toBeTruthy();
  expect(final.durationSeconds).toBeGreaterThan(0);
  expect(Math.abs(final.durationSeconds - recordedSeconds), "the stored video is as long as the recording").toBeLessThanOrEqual(
    DURATION_TOLERANCE_S,
  );
  return final;
}


/**
 * What the candidate sees while the test runs: the texts of the upload status, alerts, toasts and the page's heading,
 * each distinct one once (numbers that count down are folded), for the report and for the check that no answer was
 * said to be lost.
 */
function watchCandidate(page: Page) {
  const seen: string[] = [];
  let running = true;
  const look = async () => {
    const texts = await page
      .evaluate(() => {
        const pick = (selector: string) =>
          Array.from(document.querySelectorAll(selector)).map((e) => (e as HTMLElement).innerText.replace(/\s+/g, " ").trim());
        return [...pick('[role="status"]'), ...pick('[role="alert"]'), ...pick("[data-sonner-toast]"), ...pick("h1")];
      })
      .catch(() => [] as string[]);
    for (const text of texts) {
      const folded = text.replace(/Retrying in \d+ s/g, "Retrying in N s").replace(/\d+%/g, "N%");
      if (folded && !seen.includes(folded)) seen.push(folded);
    }
  };
  const loop = (async () => {
    while (running) {
      await look();
      await new Promise((r) => setTimeout(r, 150));
    }
  })();
  return async () => {
    running = false;
    await loop;
    await look();
    test.info().annotations.push({ type: "candidate saw", description: seen.join(" | ") });
    return seen;
  };
}

/** The request sequence of the running test, attached to its results (the report's evidence of a lost or second answer). */
let requestLines: string[] = [];

/** The interview's requests to the server, in order, with what came of each. */
function traceRequests(page: Page) {
  const started = Date.now();
  const lines: string[] = (requestLines = []);
  const name = (request: Request) => `${request.method()} ${new URL(request.url()).pathname.replace(/^\/api\/screenroom/, "")}`;
  const at = () => `+${String(Date.now() - started).padStart(6)} ms`;
  // the interview's routes and its record reads (the check for an answer stored already), not the realtime stream
  const interesting = (request: Request) => /^\/api\/(screenroom|collections)\//.test(new URL(request.url()).pathname);
  page.on("requestfinished", (request) => {
    if (!interesting(request)) return;
    const when = at();
    void request.response().then(async (response) => {
      const status = response?.status() ?? 0;
      // a refusal's own words, for the report (the candidate never sees them)
      const said = status >= 400 ? ` ${((await response!.text().catch(() => "")) || "").slice(0, 200)}` : "";
      lines.push(`${when} ${name(request)} → ${status}${said}`);
    });
  });
  page.on("requestfailed", (request) => {
    if (interesting(request)) lines.push(`${at()} ${name(request)} ✗ ${request.failure()?.errorText ?? "failed"}`);
  });
  return { mark: (what: string) => lines.push(`${at()} ── ${what}`) };
}

async function openQuestion(page: Page, key: string) {
  await page.goto(`${origin()}/candidates/${key}/questions/${seeded!.question.id}`);
  await page.getByRole("button", { name: "View question" }).click();
  await expect(page.getByText("Take 1 of 1")).toBeVisible();
}

/** 'Start Recording'; resolves with the time the recording was seen running. */
async function startRecording(page: Page): Promise<number> {
  await page.getByRole("button", { name: "Start Recording" }).click();
  await page.getByRole("button", { name: "Stop Recording" }).waitFor();
  return Date.now();
}

/** 'Stop Recording'; resolves with the seconds the recording ran, as the test saw it. */
async function stopRecording(page: Page, startedAt: number): Promise<number> {
  await page.getByRole("button", { name: "Stop Recording" }).click();
  const seconds = (Date.now() - startedAt) / 1000;
  await page.getByLabel("Your recording").waitFor();
  return seconds;
}

/** Where every test ends for the candidate: the thank-you screen, with nothing left to upload and nothing said lost. */
async function expectCandidateDone(page: Page, seen: () => Promise<string[]>) {
  await expect(page.getByRole("heading", { name: "Thank you" })).toBeVisible();
  await expect(stillSending(page)).toHaveCount(0, { timeout: 60_000 });
  const texts = await seen();
  expect(texts.filter((t) => /could not be uploaded|Something went wrong/i.test(t)), "nothing told the candidate an answer was lost").toEqual([]);
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = mkdtempSync(join(tmpdir(), "screenroom-server-crash-"));
  port = await freePort();
  await startServer(true);
  worker = await startWorker({
    url: origin(),
    superuser: E2E.superuser,
    // an hour: a claim left by the crash never expires within the test, so only a resume finishes the job
    env: { WORKER_ID: "server-crash-worker", WORKER_LEASE_SECONDS: "3600" },
    onOutput: (text) => workerLog.push(text),
  });
  seeded = await seedJob();
});

test.afterAll(async () => {
  await stopChild(worker);
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test.afterEach(async () => {
  await test.info().attach("requests", { body: requestLines.join("\n"), contentType: "text/plain" });
  await test.info().attach("worker.log", { body: workerLog.splice(0).join(""), contentType: "text/plain" });
  const server = serverLog.splice(0).join("");
  if (test.info().status !== test.info().expectedStatus) {
    await test.info().attach("pocketbase.log", { body: server.slice(-50_000), contentType: "text/plain" });
  }
});

test("PocketBase is killed while a take's parts are staged: the recording goes on, and one whole answer arrives", async ({ page }) => {
  test.setTimeout(240_000);
  const { candidate, key } = await newCandidate();
  const trace = traceRequests(page);
  await openQuestion(page, key);
  const seen = watchCandidate(page);

  const firstPart = page.waitForResponse(
    (response) => response.request().method() === "PUT" && /\/api\/screenroom\/takes\/[a-z0-9]+\/parts\/\d+/.test(response.url()) && response.ok(),
  );
  const startedAt = await startRecording(page);
  await firstPart;
  trace.mark("a part reached the server: SIGKILL");
  await killServer();
  // the recording goes on without the server: chunks that fail to send wait on the device
  await page.waitForTimeout(3000);
  await expect(page.getByRole("button", { name: "Stop Recording" })).toBeVisible();
  await restartServer();
  trace.mark("PocketBase started again");
  const recorded = await stopRecording(page, startedAt);
  await page.getByRole("button", { name: "Submit answer" }).click();

  await expectCandidateDone(page, seen);
  await expectOneWholeAnswer(candidate.id, recorded);
});

test("PocketBase is killed right after 'Submit answer', its answer lost with it: the upload waits for it, and one whole answer arrives", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const { candidate, key } = await newCandidate();
  const trace = traceRequests(page);
  await openQuestion(page, key);
  const seen = watchCandidate(page);

  const startedAt = await startRecording(page);
  await page.waitForTimeout(3000);
  const recorded = await stopRecording(page, startedAt);
  // The submit reaches the server, which stores the answer and answers; it dies before that answer reaches the
  // browser (on loopback a kill after the request leaves the browser always comes after the server answered, and
  // then the browser has the answer too). The retry after the restart must find the stored answer, not make a second.
  let answered = 0;
  await page.route(
    "**/api/screenroom/answers",
    async (route) => {
      answered = (await route.fetch()).status();
      trace.mark(`the server answered the submit ${answered}: SIGKILL before the browser has it`);
      await killServer();
      await route.abort("connectionreset");
    },
    { times: 1 },
  );
  // the server that died served the app too: no more of its code can be fetched (the screen that says the answer is
  // on its way was once fetched only now, and failed to load)
  await page.route("**/assets/**", (route) => route.abort("connectionrefused"));
  await page.getByRole("button", { name: "Submit answer" }).click();
  // no thank-you before the server has every answer: the candidate is told the answer is on its way
  await expect(page.getByRole("heading", { name: "Sending your answers" })).toBeVisible();
  await expect(uploadsBox(page)).toContainText("The upload was interrupted. Retrying in");
  expect(answered, "the server stored the answer before it died").toBe(200);
  await restartServer();
  trace.mark("PocketBase started again");

  await expectCandidateDone(page, seen);
  await expectOneWholeAnswer(candidate.id, recorded);
});

test("PocketBase is killed while the media worker holds the answer's job: the worker resumes it after the restart", async ({ page }) => {
  test.setTimeout(240_000);
  const { candidate, key } = await newCandidate();
  const trace = traceRequests(page);
  await openQuestion(page, key);
  const seen = watchCandidate(page);

  const startedAt = await startRecording(page);
  await page.waitForTimeout(4000);
  const recorded = await stopRecording(page, startedAt);
  await page.getByRole("button", { name: "Submit answer" }).click();

  // the worker's claim on the stored answer's video record (hidden fields: a superuser reads them), watched from the
  // submit on: the worker takes the answer as soon as it is stored
  let held: RecordModel | undefined;
  await expect
    .poll(
      async () => {
        const video = videoOf((await answersOf(candidate.id))[0]);
        if (video?.transcriptClaimedBy && video.transcriptStatus === "pending") held = video;
        return held?.transcriptClaimedBy ?? "";
      },
      { timeout: 60_000, intervals: [50], message: "the worker claims the answer" },
    )
    .toMatch(/^server-crash-worker#/);
  trace.mark("the worker holds the job: SIGKILL");
  const logged = workerLog.length;
  await killServer();
  // The server stays down until the job met it dead: the worker reports on the answer (a failed or waiting request)
  // while it is gone. A restart quicker than the worker's own work (the remux, the transcription) would cut nothing.
  await expect
    .poll(() => workerLog.slice(logged).join("").includes(`answer ${held!.id}:`), {
      timeout: 60_000,
      message: "the worker's job meets the dead server",
    })
    .toBe(true);
  trace.mark(`the worker said: ${workerLog.slice(logged).join("").trim().replace(/\n/g, " / ")}`);
  test.info().annotations.push({
    type: "job at the kill",
    description: `claimed by ${held!.transcriptClaimedBy} at ${held!.transcriptClaimedAt}, attempt ${held!.transcriptAttempts}, seekable copy ${held!.durationSeconds ? "stored" : "not yet stored"}`,
  });
  await restartServer();
  trace.mark("PocketBase started again");

  await expectCandidateDone(page, seen);
  await expectOneWholeAnswer(candidate.id, recorded);
});
