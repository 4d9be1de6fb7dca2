// A failed transcript in the manager's review, in Chromium against the e2e stack (its real media worker): the
// manager reads why it failed in plain words and clicks 'Try again'; the answer goes back to the worker, which makes
// its transcript again, and the review shows it without a reload. The failure is set as the worker leaves one (as
// a superuser, after the worker's own first transcript), since making the worker fail on purpose is
// tests/worker/hung-server.test.ts's part.
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expectAccessible } from "./a11y";
import { answerWithVideo, reviewWorld } from "./review-support";
import { signInBrowser, superuser } from "./support";

test.describe.configure({ timeout: 300_000 });

test("a manager sees why a transcript failed, clicks 'Try again', and the worker's transcript appears", async ({ page }) => {
  const world = await reviewWorld();
  const su = await superuser();
  // a recording with speech (a MediaRecorder webm), so the transcript made again has words to show
  const webm = new Uint8Array(readFileSync(join(import.meta.dirname, "..", "tests", "fixtures", "mediarecorder-unsized.webm")));
  const { videoAnswer } = await answerWithVideo(world.key, world.questions.video.id, webm);
  await expect.poll(async () => (await su.collection("video_answers").getOne(videoAnswer.id)).transcriptStatus, { timeout: 240_000 }).toBe("done");
  const made = await su.collection("video_answers").getOne(videoAnswer.id);
  await su.collection("video_answers").update(videoAnswer.id, {
    transcriptStatus: "failed",
    transcriptFailure: "timed_out",
    transcriptError: "downloading the recording: no answer within 30 s; timed out 3 times while PocketBase answered its health check",
    transcript: "",
    transcriptSegments: null,
    transcriptAttempts: 1,
  });

  await signInBrowser(page, world.manager.pb);
  await page.goto(`/companies/${world.company.id}/jobs/${world.job.id}/candidates/${world.candidate.id}`);
  const transcript = page.getByTestId("transcript");
  await expect(transcript).toContainText("Transcript unavailable");
  await expect(transcript).toContainText("It timed out: the server or the transcription service took too long to answer.");
  await expect(transcript).not.toContainText("health check"); // the operator's words stay on the server
  await expectAccessible(page, "the review with a failed transcript");

  await transcript.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByText("The transcript is being made again.")).toBeVisible();
  await expect.poll(async () => (await su.collection("video_answers").getOne(videoAnswer.id)).transcriptStatus, { timeout: 240_000 }).toBe("done");
  const again = await su.collection("video_answers").getOne(videoAnswer.id);
  expect(again).toMatchObject({ transcript: made.transcript, transcriptAttempts: 1, transcriptFailure: "", transcriptError: "" });
  // the worker's write reaches the open review (realtime): the transcript's first words, no reload
  const firstWords = String(made.transcript).split(" ").slice(0, 2).join(" ");
  await expect(page.getByTestId("transcript")).toContainText(firstWords || "No speech detected", { timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Try again" })).toHaveCount(0);
});
