import { expect, test } from "@playwright/test";
import {
  expectedCodecs,
  kindOf,
  liveCameraTracks,
  probeStoredVideo,
  recordTake,
  requestBodies,
  seedInterview,
  stillSending,
  storedAnswers,
  trackCameraStreams,
  waitForAnswers,
} from "./interview-support";

test("a candidate answers two video questions (one with a second take) and a text question", async ({ page, browserName }) => {
  const { candidate, key, questions, manager } = await seedInterview([
    // the countdown runs from the moment the camera is ready: generous times keep a loaded machine from eating a take
    { kind: "video", title: "Introduce yourself", timeout: 90, takes: 2 },
    { kind: "video", title: "Your hardest bug", timeout: 60, takes: 1, canPreview: false },
    { kind: "text", title: "Why this job", timeout: 60 },
  ]);
  await trackCameraStreams(page);

  await page.goto(`/candidates/${key}`);
  await expect(page.getByRole("heading", { name: "Interview at Globex Hiring" })).toBeVisible();
  await page.getByLabel("I agree").check();
  await page.getByRole("button", { name: "Start Interview" }).click();
  // A video question is open: the device check comes first (issue 17), then Continue.
  await expect(page.getByRole("heading", { name: "Check your camera and microphone" })).toBeVisible();
  await page.getByRole("button", { name: "Continue" }).click();

  // Question 1: previewable, two takes.
  await expect(page).toHaveURL(new RegExp(`/candidates/${key}/questions/${questions[0]!.id}$`));
  await expect(page.getByRole("heading", { name: "Introduce yourself" })).toBeVisible();
  await expect(page.getByText("You'll answer on video")).toBeVisible();
  // the spec's sentence first, the timeout in seconds; then the kind and the preparation
  await expect(page.getByTestId("answer-time")).toHaveText("You've 90 seconds to answer");
  await expect(page.getByTestId("answer-kind")).toHaveText("You'll answer on video. First you have 30 seconds to prepare, then recording starts by itself.");
  await page.getByRole("button", { name: "View question" }).click();
  await expect(page.getByText("Take 1 of 2")).toBeVisible();
  await expect(page.getByRole("timer")).toBeVisible();
  await expect(page.getByRole("button", { name: "Start Recording" })).toBeEnabled();
  await page.screenshot({ path: "test-results/interview-camera-ready.png", fullPage: true });
  await recordTake(page);
  await page.getByRole("button", { name: "Record again" }).click();
  await expect(page.getByText("Take 2 of 2")).toBeVisible();
  await recordTake(page);
  await expect(page.getByRole("button", { name: "Record again" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/interview-video-review.png", fullPage: true });
  await page.getByRole("button", { name: "Submit answer" }).click();

  // Question 2: no preview, so the intro shows only the time.
  await expect(page).toHaveURL(new RegExp(`/questions/${questions[1]!.id}$`));
  await expect(page.getByTestId("answer-time")).toHaveText("You've 60 seconds to answer");
  await expect(page.getByTestId("answer-kind")).toHaveText("You'll answer on video. First you have 30 seconds to prepare, then recording starts by itself.");
  await expect(page.getByRole("heading", { name: "Your hardest bug" })).toHaveCount(0);
  // Leaving the first video answer released the camera.
  expect(await liveCameraTracks(page)).toBe(0);
  await page.getByRole("button", { name: "View question" }).click();
  await expect(page.getByRole("heading", { name: "Your hardest bug" })).toBeVisible();
  await expect(page.getByText("Take 1 of 1")).toBeVisible();
  await recordTake(page);
  await page.getByRole("button", { name: "Submit answer" }).click();

  // Question 3: text.
  await expect(page).toHaveURL(new RegExp(`/questions/${questions[2]!.id}$`));
  await page.getByRole("button", { name: "View question" }).click();
  await page.getByLabel("Your answer").fill("I enjoy untangling hard problems.");
  await expect(page.getByText("33 / 1000")).toBeVisible();
  await page.screenshot({ path: "test-results/interview-text.png", fullPage: true });
  expect(await liveCameraTracks(page)).toBe(0);
  await page.getByRole("button", { name: "Submit answer" }).click();

  await expect(page.getByRole("heading", { name: "Thank you" })).toBeVisible();
  await expect(page.getByText("We'll get back to you soon")).toBeVisible();
  // every answer arrived
  await expect(stillSending(page)).toHaveCount(0, { timeout: 30_000 });

  const answers = await waitForAnswers(candidate.id, 3);
  expect(answers.map((a) => a.question)).toEqual(questions.map((q) => q.id));
  expect(kindOf(answers[2]!, "text_answers_via_answer")?.content).toBe("I enjoy untangling hard problems.");
  for (const answer of answers.slice(0, 2)) {
    const video = kindOf(answer, "video_answers_via_answer");
    expect(video, "a video answer record").toBeDefined();
    const probe = await probeStoredVideo(video!);
    expect(probe.streams.map((s) => s.codec_type).sort()).toEqual(["audio", "video"]);
    // what this browser recorded, kept as it was by the worker's remux: a webm of its MediaRecorder's codecs
    expect(probe.format).toBe("matroska,webm");
    const codecs = expectedCodecs(browserName);
    expect(probe.streams.find((s) => s.codec_type === "video")?.codec_name).toBe(codecs.video);
    expect(probe.streams.find((s) => s.codec_type === "audio")?.codec_name).toBe(codecs.audio);
    expect(probe.size).toBeGreaterThan(1000);
  }

  // The manager's own API view shows the three answers.
  const seen = await manager.pb
    .collection("answers")
    .getFullList({ filter: manager.pb.filter("candidate = {:c}", { c: candidate.id }) });
  expect(seen).toHaveLength(3);
});

test("a text answer is submitted by itself when the time runs out; an empty one says 'Time is up'", async ({ page }) => {
  const { candidate, key, questions } = await seedInterview([
    { kind: "text", title: "First thoughts", timeout: 5 },
    { kind: "text", title: "Second thoughts", timeout: 5 },
  ]);
  await page.goto(`/candidates/${key}/questions/${questions[0]!.id}`);
  await page.getByRole("button", { name: "View question" }).click();
  await page.getByLabel("Your answer").fill("Typed in time");
  // No click: the countdown submits it.
  await expect(page).toHaveURL(new RegExp(`/questions/${questions[1]!.id}$`), { timeout: 30_000 });
  await page.getByRole("button", { name: "View question" }).click();
  await expect(page.getByText("Time is up")).toBeVisible({ timeout: 30_000 });
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Thank you" })).toBeVisible();

  const answers = await waitForAnswers(candidate.id, 1);
  await page.waitForTimeout(500);
  expect(await storedAnswers(candidate.id)).toHaveLength(1);
  expect(kindOf(answers[0]!, "text_answers_via_answer")?.content).toBe("Typed in time");
});

test("an unknown key, or a candidate's record id, shows the friendly invalid-link page", async ({ page }) => {
  await page.goto("/candidates/nosuchcandidat1");
  await expect(page.getByRole("heading", { name: "This interview link is not valid" })).toBeVisible();
  // the record id is no credential: only the key (the link's last part) opens the interview
  const { candidate, key } = await seedInterview([{ kind: "text", title: "Only question" }]);
  expect(key).toMatch(/^[a-zA-Z0-9]{40}$/);
  await page.goto(`/candidates/${candidate.id}`);
  await expect(page.getByRole("heading", { name: "This interview link is not valid" })).toBeVisible();
  await page.goto(`/candidates/${key}`);
  await expect(page.getByRole("heading", { name: "Interview at Globex Hiring" })).toBeVisible();
});

test("a recording stops by itself at 0, and a retake gets the full time again", async ({ page }) => {
  // short enough to wait out, long enough that a loaded machine still clicks 'Start Recording' before 0
  const { candidate, key, questions } = await seedInterview([{ kind: "video", title: "Quick intro", timeout: 10, takes: 2 }]);
  await page.goto(`/candidates/${key}/questions/${questions[0]!.id}`);
  await page.getByRole("button", { name: "View question" }).click();
  await page.getByRole("button", { name: "Start Recording" }).click();
  await expect(page.getByRole("button", { name: "Stop Recording" })).toBeVisible();
  // No click: the countdown ends the take.
  await expect(page.getByLabel("Your recording")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Stop Recording" })).toHaveCount(0);

  await page.getByRole("button", { name: "Record again" }).click();
  await expect(page.getByText("Take 2 of 2")).toBeVisible();
  await expect(page.getByRole("timer")).toHaveText(/0:(10|0[6-9])/);
  await expect(page.getByRole("button", { name: "Start Recording" })).toBeVisible();
  await page.getByRole("button", { name: "Start Recording" }).click();
  await expect(page.getByLabel("Your recording")).toBeVisible({ timeout: 30_000 });
  await page.getByRole("button", { name: "Submit answer" }).click();
  await expect(page.getByRole("heading", { name: "Thank you" })).toBeVisible();
  const [answer] = await waitForAnswers(candidate.id, 1);
  const probe = await probeStoredVideo(kindOf(answer!, "video_answers_via_answer")!);
  expect(probe.streams.map((s) => s.codec_type).sort()).toEqual(["audio", "video"]);
});

test("a take goes to the server while it is recorded: 'Submit answer' sends only a small request", async ({ page, browserName }) => {
  const { candidate, key, questions } = await seedInterview([{ kind: "video", title: "Introduce yourself", timeout: 60, takes: 2 }]);
  // the parts the server stored, by take (PUT /api/screenroom/takes/{take}/parts/{offset} answers what it stored)
  const parts: { take: string; offset: number; bytes: number; atStop: boolean }[] = [];
  let stopped = false;
  page.on("requestfinished", async (request) => {
    const part = /\/api\/screenroom\/takes\/([a-z0-9]+)\/parts\/(\d+)/.exec(request.url());
    if (!part || request.method() !== "PUT") return;
    const atStop = stopped;
    // what the server stored (a Blob body is not in Playwright's postDataBuffer()); a refused part stored nothing
    const response = await request.response();
    if (response?.status() !== 200) return;
    const stored = (await response.json()) as { take: string; offset: number; size: number };
    parts.push({ take: stored.take, offset: stored.offset, bytes: stored.size, atStop });
  });
  const sentBodies = await requestBodies(page, "/api/screenroom/answers", browserName);
  const discarded: string[] = [];
  page.on("request", (request) => {
    const take = /\/api\/screenroom\/takes\/([a-z0-9]+)$/.exec(request.url());
    if (take && request.method() === "DELETE") discarded.push(take[1]!);
  });

  await page.goto(`/candidates/${key}/questions/${questions[0]!.id}`);
  await page.getByRole("button", { name: "View question" }).click();
  // a first take, replaced: its parts are dropped on the server
  await recordTake(page, 1500);
  await page.getByRole("button", { name: "Record again" }).click();
  await page.getByRole("button", { name: "Start Recording" }).click();
  await page.getByRole("button", { name: "Stop Recording" }).waitFor();
  // the recorder hands over a chunk a second: several are on the server before the take ends
  await expect.poll(() => new Set(parts.map((p) => p.take)).size, { timeout: 30_000 }).toBe(2);
  const first = parts[0]!.take;
  const second = parts.map((p) => p.take).find((take) => take !== first)!;
  await expect.poll(() => parts.filter((p) => p.take === second).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  stopped = true;
  await page.getByRole("button", { name: "Stop Recording" }).click();
  await page.getByRole("button", { name: "Submit answer" }).click();
  await expect(page.getByRole("heading", { name: "Thank you" })).toBeVisible();
  const [answer] = await waitForAnswers(candidate.id, 1);

  // the answer is the second take, sent as parts: the answer request is marked staged and carries no file
  expect(answer!.id).toBe(second);
  expect(discarded).toContain(first);
  expect(discarded).not.toContain(second);
  const answerBodies = await sentBodies();
  expect(answerBodies).toHaveLength(1);
  expect(answerBodies[0]!.length).toBeLessThan(1000);
  const body = JSON.parse(answerBodies[0]!) as { id: string; staged: boolean; size: number };
  expect(body).toMatchObject({ id: second, staged: true });
  // each part once (nothing failed here, so nothing was sent again), in order
  const sent = parts.filter((p) => p.take === second).sort((a, b) => a.offset - b.offset);
  expect(new Set(sent.map((p) => p.offset)).size).toBe(sent.length);
  expect(sent.filter((p) => !p.atStop).length).toBeGreaterThanOrEqual(2);
  // contiguous parts that add up to the take
  let offset = 0;
  for (const part of sent) {
    expect(part.offset).toBe(offset);
    offset += part.bytes;
  }
  expect(offset).toBe(body.size);
  const probe = await probeStoredVideo(kindOf(answer!, "video_answers_via_answer")!);
  expect(probe.streams.map((s) => s.codec_type).sort()).toEqual(["audio", "video"]);
});
