// The README's screenshots (docs/images/), taken from the real product: run `npm start` (a fresh .data/ seeds the
// demo), then, beside it, `node scripts/docs-screenshots.mjs`. It adds a few demo candidates to the demo job through
// the product's own routes (invited ones, answered ones the worker transcribes, ratings and decisions by the demo
// manager), then photographs, in Debian's Chromium, the job's pipeline, a candidate's review, the job's analytics and a
// candidate's question screen (a fake camera playing a gradient). PB_PORT and VITE_PORT as for `npm start`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import PocketBase from "pocketbase";
import { root } from "./lib/pocketbase.mjs";
import { seedReviewDemo } from "./seed-review.mjs";
import { DEMO_MANAGER } from "./seed.mjs";

const pbUrl = `http://127.0.0.1:${process.env.PB_PORT || 8090}`;
// DOCS_APP_URL: the app served elsewhere, e.g. a production build (`vite preview`), which has no dev-only panels
const appUrl = process.env.DOCS_APP_URL || `http://127.0.0.1:${process.env.VITE_PORT || 5173}`;
const superuser = { email: "admin@screenroom.test", password: "admin-password-123" };
const images = join(root, "docs", "images");
const marker = join(root, ".data", "seeded");
if (!existsSync(marker)) throw new Error("No demo data: start `npm start` first (it seeds .data/ on its first run).");
const demo = JSON.parse(readFileSync(marker, "utf8"));

const manager = new PocketBase(pbUrl);
manager.autoCancellation(false);
await manager.collection("users").authWithPassword(DEMO_MANAGER.email, DEMO_MANAGER.password);
const su = new PocketBase(pbUrl);
su.autoCancellation(false);
await su.collection("_superusers").authWithPassword(superuser.email, superuser.password);

/** A pipeline worth looking at: answered candidates with ratings and decisions, and invited ones. */
async function morePipeline() {
  const existing = await manager.collection("candidates").getFullList({ filter: manager.filter("job = {:job}", { job: demo.jobId }) });
  if (existing.length > 4) return;
  const answered = [
    { email: "amara.okafor@example.com", stars: [5, 4], decision: "advance" },
    { email: "jonas.lindqvist@example.com", stars: [3, 4], decision: "hold" },
    { email: "mei.tanaka@example.com", stars: [2, 2], decision: "reject" },
  ];
  for (const person of answered) {
    const id = await seedReviewDemo({ url: pbUrl, jobId: demo.jobId, superuser, email: person.email });
    const answers = await manager.collection("answers").getFullList({ filter: manager.filter("candidate = {:id}", { id }), sort: "created" });
    for (const [i, answer] of answers.entries()) {
      const stars = person.stars[i];
      if (stars) await manager.collection("ratings").create({ answer: answer.id, candidate: id, manager: manager.authStore.record.id, stars });
    }
    await manager.send(`/api/screenroom/candidates/${id}/decision`, { method: "POST", body: { decision: person.decision } });
  }
  for (const email of ["lucas.moreau@example.com", "priya.raman@example.com", "sam.obrien@example.com", "elena.petrova@example.com"]) {
    await manager.collection("candidates").create({ job: demo.jobId, email });
  }
  if (demo.reviewedCandidateId) {
    const answers = await manager.collection("answers").getFullList({ filter: manager.filter("candidate = {:id}", { id: demo.reviewedCandidateId }), sort: "created" });
    for (const [i, answer] of answers.entries()) {
      await manager.collection("ratings").create({ answer: answer.id, candidate: demo.reviewedCandidateId, manager: manager.authStore.record.id, stars: [4, 5, 4][i] ?? 4 });
    }
    await manager.collection("comments").create({
      candidate: demo.reviewedCandidateId,
      author: manager.authStore.record.id,
      text: "Clear, concrete examples; the database story is exactly the kind of ownership we want. Worth a second interview.",
    });
  }
}

/** Waits until the worker transcribed every video answer of the job's answered candidates. */
async function transcribed() {
  const deadline = Date.now() + 900_000;
  for (;;) {
    const pending = await su.collection("video_answers").getList(1, 1, { filter: "transcriptStatus = 'pending'" });
    if (pending.totalItems === 0) return;
    if (Date.now() > deadline) throw new Error(`${pending.totalItems} video answers are still waiting for the worker`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

function camera() {
  const file = join(root, ".cache", "media", "docs-camera.y4m");
  if (!existsSync(file)) {
    mkdirSync(join(root, ".cache", "media"), { recursive: true });
    const r = spawnSync("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "gradients=s=640x360:c0=0x3b4a6b:c1=0x8fa3bf:speed=0.01:rate=15", "-t", "4", "-pix_fmt", "yuv420p", file], { stdio: "inherit" });
    if (r.status !== 0) throw new Error("ffmpeg could not make the camera's picture");
  }
  return file;
}

await morePipeline();
await transcribed();
if (demo.reviewedCandidateId) {
  await manager.send(`/api/screenroom/candidates/${demo.reviewedCandidateId}/decision`, { method: "POST", body: { decision: "advance" } });
}
mkdirSync(images, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", `--use-file-for-fake-video-capture=${camera()}`],
});
try {
  const session = JSON.stringify({ token: manager.authStore.token, record: manager.authStore.record });
  const managerContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  await managerContext.addInitScript((value) => globalThis.localStorage.setItem("pocketbase_auth", value), session);
  // the dev server compiles each module on its first request: slow on a busy machine
  managerContext.setDefaultTimeout(180_000);
  managerContext.setDefaultNavigationTimeout(180_000);
  const page = await managerContext.newPage();

  await page.goto(`${appUrl}/companies/${demo.companyId}/jobs/${demo.jobId}?sort=averageRating&dir=desc`);
  await page.getByText("amara.okafor@example.com").waitFor();
  // the pipeline's counts, filters and table at the top of the picture
  await page.getByText(/\d+ invited · \d+ started/).evaluate((element) => element.scrollIntoView({ block: "start" }));
  await page.evaluate(() => globalThis.scrollBy(0, -24));
  await page.waitForTimeout(1000);
  await page.screenshot({ path: join(images, "pipeline.png") });

  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto(`${appUrl}/companies/${demo.companyId}/jobs/${demo.jobId}/candidates/${demo.reviewedCandidateId}`);
  await page.getByText("Worth a second interview", { exact: false }).waitFor();
  // a frame of each video rather than a black box; the score, the decision and the first answer in the picture
  await page.evaluate(() => globalThis.document.querySelectorAll("video").forEach((video) => (video.currentTime = 2)));
  await page.getByText("Overall score").evaluate((element) => element.scrollIntoView({ block: "start" }));
  await page.evaluate(() => globalThis.scrollBy(0, -24));
  await page.waitForTimeout(2500); // realtime keeps a request open: no network idle to wait for
  await page.screenshot({ path: join(images, "review.png") });

  // the job's analytics: the funnel and the drop-off per question, each chart with its table
  await page.setViewportSize({ width: 1280, height: 1400 });
  await page.goto(`${appUrl}/companies/${demo.companyId}/jobs/${demo.jobId}/analytics`);
  await page.getByRole("table", { name: "Drop-off per question" }).waitFor();
  await page.locator(".recharts-surface").first().waitFor();
  await page.waitForTimeout(1500); // the charts measure their card's width before they draw
  await page.screenshot({ path: join(images, "analytics.png") });
  await managerContext.close();

  // a candidate of her own, who has not opened a question yet (one left by an earlier run goes first)
  // (a fresh address each run: an address gets 3 e-mails an hour)
  const earlier = await manager.collection("candidates").getFullList({ filter: manager.filter("job = {:job} && email ~ 'nora.haddad'", { job: demo.jobId }) });
  for (const record of earlier) await manager.collection("candidates").delete(record.id);
  const invited = await manager.collection("candidates").create({ job: demo.jobId, email: `nora.haddad.${Date.now()}@example.com` });
  const { secret } = await su.collection("candidates").getOne(invited.id);
  const candidateContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, permissions: ["camera", "microphone"] });
  candidateContext.setDefaultTimeout(180_000);
  candidateContext.setDefaultNavigationTimeout(180_000);
  const candidate = await candidateContext.newPage();
  await candidate.goto(`${appUrl}/candidates/${secret}`);
  await candidate.getByLabel("I agree").check();
  await candidate.getByRole("button", { name: "Start Interview" }).click();
  await candidate.getByRole("button", { name: "Continue" }).click();
  await candidate.getByRole("button", { name: "View question" }).click();
  await candidate.getByText("Recording starts in", { exact: false }).waitFor();
  await candidate.waitForTimeout(1500); // the camera's picture settles
  await candidate.screenshot({ path: join(images, "candidate-question.png") });
  await candidateContext.close();
} finally {
  await browser.close();
}
console.log(`Screenshots in ${images}: pipeline.png, review.png, analytics.png, candidate-question.png`);
