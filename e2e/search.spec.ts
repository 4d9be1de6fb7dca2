// Issue 18 point 3 in a real browser: a candidate records an answer (the fake microphone plays a LibriVox clip), the
// media worker transcribes it, and the manager searches a word the candidate said from the shell's search box, sees
// the hit with the word marked, and lands on the review at that answer, its video set to the second the word is said.
import { expect, test } from "@playwright/test";
import { isFirefox } from "./interview-support";
import { expectAccessible } from "./a11y";
import { answerWithVideo, recordInBrowser, reviewWorld } from "./review-support";
import { signInBrowser } from "./support";

test.describe.configure({ timeout: 300_000 });

test("a manager searches a spoken word and lands on the answer at the moment it is said", async ({ page, browser, browserName }) => {
  const world = await reviewWorld();
  const candidateContext = await browser.newContext();
  const candidatePage = await candidateContext.newPage();
  await candidatePage.goto(`/candidates/${world.key}`);
  const recording = await recordInBrowser(candidatePage, 7_000, { clipAsMicrophone: isFirefox(browserName) });
  await candidateContext.close();
  const { answer, videoAnswer } = await answerWithVideo(world.key, world.questions.video.id, recording);

  // the worker's transcript, as the server stores it (pocketsphinx hears the clip, not always the same words)
  await expect
    .poll(async () => (await world.manager.pb.collection("video_answers").getOne(videoAnswer.id)).transcriptStatus, { timeout: 180_000 })
    .toBe("done");
  const stored = await world.manager.pb.collection("video_answers").getOne(videoAnswer.id);
  const segments = (stored.transcriptSegments ?? []) as { start: number; text: string }[];
  // a word of four letters or more, said in a segment after the first when there is one, so the start is not 0
  const candidates = (segments.length > 1 ? segments.slice(1) : segments).flatMap((segment) =>
    (segment.text.toLowerCase().match(/[a-z]{4,}/g) ?? []).map((word) => ({ word, start: segment.start })),
  );
  expect(candidates.length, `words in ${JSON.stringify(segments)}`).toBeGreaterThan(0);
  const { word } = candidates[0]!;

  await signInBrowser(page, world.manager.pb);
  await page.goto(`/companies/${world.company.id}/jobs`);
  await page.getByRole("searchbox", { name: "Search answers" }).fill(word);
  await page.getByRole("button", { name: "Search" }).click();

  const results = page.getByRole("list", { name: "Search results" });
  await expect(results.getByRole("listitem")).toHaveCount(1);
  await expect(results.locator("mark").first()).toHaveText(new RegExp(word, "i"));
  await expectAccessible(page, "search results");
  const hitLink = results.getByRole("link", { name: world.candidate.email });
  const href = await hitLink.getAttribute("href");
  expect(href).toContain(`answer=${answer.id}`);
  const seconds = Number(new URL(href!, "http://x").searchParams.get("t"));
  expect(seconds).toBeGreaterThanOrEqual(0);
  // the second given is a segment's start holding the word
  expect(segments.some((segment) => segment.start === seconds && new RegExp(word.slice(0, 4), "i").test(segment.text))).toBe(true);

  await hitLink.click();
  await expect(page.getByRole("heading", { level: 1, name: world.candidate.email })).toBeVisible();
  // the card is named by its question
  const card = page.getByRole("article", { name: "Answer to question 1: Introduce yourself" });
  await expect(card).toHaveAttribute("aria-current", "true");
  await expect(card).toBeFocused();
  const player = card.getByLabel("Answer video");
  await expect.poll(() => player.evaluate((node) => (node as HTMLVideoElement).readyState), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
  await expect
    .poll(() => player.evaluate((node) => (node as HTMLVideoElement).currentTime), { timeout: 20_000 })
    .toBeCloseTo(seconds, 0);
});
