// Comparing candidates and captions, in real Chromium against the real stack: three candidates answer (one recording
// made in the browser, the fake microphone playing a LibriVox clip) and the media worker transcribes it; the manager's
// review shows the answer's captions from the WebVTT route as a track, on by default, switched off and remembered,
// with the transcript's downloads; a colleague's share link shows the same captions until it is revoked; and the
// manager compares the three candidates side by side with the review's keyboard shortcuts, another company's
// candidate shown as not found.
import { expect, test, type Download, type Locator, type Page } from "@playwright/test";
import { readFile } from "node:fs/promises";
import { E2E } from "../scripts/lib/e2e-ports.mjs";
import { expectAccessible } from "./a11y";
import { answerWithText, answerWithVideo, recordInBrowser, reviewWorld } from "./review-support";
import { consentAs, keyOf, signInBrowser, superuser, uniqueEmail } from "./support";

test.describe.configure({ timeout: 420_000 });

type Segment = { start: number; end: number; text: string };

/** What the page's video holds of its captions: each track's mode and readiness, its cues, the cues showing now. */
function captionsOf(player: Locator) {
  return player.evaluate((node) => {
    const video = node as HTMLVideoElement;
    const element = video.querySelector("track");
    const track = video.textTracks[0];
    return {
      tracks: video.textTracks.length,
      mode: track?.mode ?? null,
      readyState: element?.readyState ?? null,
      cues: Array.from(track?.cues ?? []).map((cue) => ({ start: cue.startTime, end: cue.endTime, text: (cue as VTTCue).text })),
      active: Array.from(track?.activeCues ?? []).map((cue) => (cue as VTTCue).text),
    };
  });
}

/** Moves the (paused) player to `seconds` and waits for the seek to finish. */
function seek(player: Locator, seconds: number) {
  return player.evaluate(
    (node, to) =>
      new Promise<void>((resolve) => {
        const video = node as HTMLVideoElement;
        video.pause();
        video.addEventListener("seeked", () => resolve(), { once: true });
        video.currentTime = to;
      }),
    seconds,
  );
}

/** The captions the track shows at a segment, once the player knows its length: the segment's own words. */
async function expectCaptionsShown(player: Locator, segments: Segment[]) {
  await expect.poll(async () => (await captionsOf(player)).readyState, { timeout: 30_000 }).toBe(2);
  const state = await captionsOf(player);
  expect(state.tracks).toBe(1);
  expect(state.mode).toBe("showing");
  // one cue per stored segment, in its words (the WebVTT escapes only markup characters, which transcripts lack)
  const cues = cuesOf(segments);
  expect(state.cues.map((cue) => cue.text)).toEqual(cues.map((cue) => cue.text));
  expect(state.cues.map((cue) => cue.start)).toEqual(cues.map((cue) => cue.start));
  await expect.poll(() => player.evaluate((node) => (node as HTMLVideoElement).readyState), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
  const middle = cues[Math.floor(cues.length / 2)]!;
  await seek(player, (middle.start + middle.end) / 2);
  await expect.poll(async () => (await captionsOf(player)).active, { timeout: 10_000 }).toEqual([middle.text]);
}

async function downloaded(page: Page, link: Locator): Promise<{ name: string; text: string }> {
  const [download] = (await Promise.all([page.waitForEvent("download"), link.click()])) as [Download, void];
  return { name: download.suggestedFilename(), text: await readFile((await download.path())!, "utf8") };
}

/**
 * The cues the server makes of stored segments (server/internal/review/captions.go): each non-empty one in its own
 * words, spaces collapsed; one without length shows for a second or until the next starts.
 */
function cuesOf(segments: Segment[]): Segment[] {
  const cues = segments
    .map((segment) => ({ ...segment, text: segment.text.split(/\s+/).filter(Boolean).join(" ") }))
    .filter((segment) => segment.text !== "");
  return cues.map((cue, index) => {
    if (cue.end > cue.start) return cue;
    const next = cues[index + 1]?.start;
    return { ...cue, end: next !== undefined && next > cue.start && next < cue.start + 1 ? next : cue.start + 1 };
  });
}

/** What the WebVTT download holds for these segments (cue per segment, hh:mm:ss.ttt). */
function expectedVtt(segments: Segment[]): string {
  const time = (seconds: number) => new Date(Math.round(seconds * 1000)).toISOString().slice(11, 23);
  return `WEBVTT\n${cuesOf(segments).map((c, i) => `\n${i + 1}\n${time(c.start)} --> ${time(c.end)}\n${c.text}\n`).join("")}`;
}

test("captions on the review and a share link, transcript downloads, and three candidates compared with the keyboard", async ({ page, browser }) => {
  const world = await reviewWorld();
  const su = await superuser();
  const more = await Promise.all(
    ["bea", "cid"].map(async (label) => {
      const candidate = await world.manager.pb.collection("candidates").create({ job: world.job.id, email: uniqueEmail(label) });
      const key = await keyOf(candidate.id);
      await consentAs(key);
      return { candidate, key };
    }),
  );
  const candidates = [{ candidate: world.candidate, key: world.key }, ...more];

  // One recording made in the browser, as each candidate's answer; a text answer of each of their own.
  const candidateContext = await browser.newContext();
  const candidatePage = await candidateContext.newPage();
  await candidatePage.goto(`/candidates/${world.key}`);
  const recording = await recordInBrowser(candidatePage, 7_000);
  await candidateContext.close();
  const answers = [];
  for (const [index, { key }] of candidates.entries()) {
    const video = await answerWithVideo(key, world.questions.video.id, recording);
    const text = await answerWithText(key, world.questions.text.id, `Answer number ${index + 1}: I enjoy helping people.`);
    answers.push({ video, text });
  }
  const first = answers[0]!.video;

  // The media worker's real transcript of the first answer, with its timed segments.
  await expect.poll(async () => (await su.collection("video_answers").getOne(first.videoAnswer.id)).transcriptStatus, { timeout: 240_000 }).toBe("done");
  const stored = await su.collection("video_answers").getOne(first.videoAnswer.id);
  const segments = (stored.transcriptSegments ?? []) as Segment[];
  expect(segments.length, JSON.stringify(stored.transcriptSegments)).toBeGreaterThan(1);
  console.log(`captions from ${segments.length} segments: ${segments.map((s) => s.text).join(" | ")}`);

  // --- the manager's review: captions on by default ---
  await signInBrowser(page, world.manager.pb);
  await page.goto(`/companies/${world.company.id}/jobs/${world.job.id}/candidates/${world.candidate.id}`);
  const section = page.getByRole("region", { name: "1. Introduce yourself" });
  const card = section.getByRole("article", { name: "Answer to question 1: Introduce yourself" });
  await expect(card).toBeVisible();
  const player = card.getByLabel("Answer video");
  const toggle = card.getByRole("checkbox", { name: "Captions" });
  await expect(toggle).toBeChecked();
  await expectCaptionsShown(player, segments);
  await page.screenshot({ path: "test-results/compare-captions-review.png", fullPage: true });
  await expectAccessible(page, "the review with captions");

  // switched off, and still off after a reload; on again
  await toggle.uncheck();
  await expect.poll(async () => (await captionsOf(player)).mode).toBe("hidden");
  await page.reload();
  await expect(toggle).not.toBeChecked();
  await expect.poll(async () => (await captionsOf(player)).readyState, { timeout: 30_000 }).toBe(2);
  expect((await captionsOf(player)).mode).toBe("hidden");
  await toggle.check();
  await expect.poll(async () => (await captionsOf(player)).mode).toBe("showing");

  // the transcript's downloads: the WebVTT file and the text, named after the question
  const vtt = await downloaded(page, card.getByRole("link", { name: "Download captions (WebVTT)" }));
  expect(vtt).toEqual({ name: "Introduce yourself transcript.vtt", text: expectedVtt(segments) });
  const text = await downloaded(page, card.getByRole("link", { name: "Download transcript (text)" }));
  expect(text).toEqual({ name: "Introduce yourself transcript.txt", text: `${(stored.transcript as string).trim()}\n` });

  // --- a colleague's share link: the same captions, no session ---
  const link = await world.manager.pb.send<{ token: string; url: string; link: { id: string } }>("/api/screenroom/share-links", {
    method: "POST",
    body: { candidate: world.candidate.id },
  });
  const colleague = await browser.newContext();
  const shared = await colleague.newPage();
  expect(link.url.startsWith(`${E2E.appUrl}/shared/`)).toBe(true);
  await shared.goto(link.url);
  const sharedSection = shared.getByRole("region", { name: "1. Introduce yourself" });
  const sharedPlayer = sharedSection.getByLabel("Answer video");
  const sharedToggle = sharedSection.getByRole("checkbox", { name: "Captions" });
  await expect(sharedToggle).toBeChecked();
  await expectCaptionsShown(sharedPlayer, segments);
  await shared.screenshot({ path: "test-results/compare-captions-shared.png", fullPage: true });
  await expectAccessible(shared, "the shared review with captions");
  await sharedToggle.uncheck();
  await expect.poll(async () => (await captionsOf(sharedPlayer)).mode).toBe("hidden");
  await shared.reload();
  await expect(sharedToggle).not.toBeChecked();
  const sharedVtt = await downloaded(shared, sharedSection.getByRole("link", { name: "Download captions (WebVTT)" }));
  expect(sharedVtt).toEqual({ name: "Introduce yourself transcript.vtt", text: expectedVtt(segments) });
  // revoked: the page and its captions are refused
  await world.manager.pb.send(`/api/screenroom/share-links/${link.link.id}/revoke`, { method: "POST" });
  const captionsPath = `/api/screenroom/shared/${link.token}/videos/${first.videoAnswer.id}/captions.vtt`;
  expect(await shared.evaluate(async (url) => (await fetch(url)).status, captionsPath)).toBe(410);
  await shared.reload();
  await expect(shared.getByRole("heading", { level: 1, name: "This link was revoked." })).toBeVisible();
  await colleague.close();

  // --- three candidates side by side, moved through with the keyboard ---
  const ids = candidates.map(({ candidate }) => candidate.id);
  const emails = candidates.map(({ candidate }) => candidate.email as string);
  await page.goto(`/companies/${world.company.id}/jobs/${world.job.id}/compare?candidates=${ids.join(",")}`);
  await expect(page.getByRole("heading", { level: 1, name: "Compare candidates" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Compared candidates" }).getByRole("heading", { level: 2 })).toHaveText(emails);
  const answerCard = (candidate: number, question: string) => page.getByRole("article", { name: `${emails[candidate]}: Answer to question ${question}` });
  const q1 = "1: Introduce yourself";
  const q2 = "2: Why us?";
  for (let index = 0; index < 3; index += 1) {
    await expect(answerCard(index, q1).getByLabel("Answer video")).toBeVisible();
    await expect(answerCard(index, q2)).toContainText(`Answer number ${index + 1}: I enjoy helping people.`);
  }
  await expect(answerCard(0, q1)).toHaveAttribute("aria-current", "true");
  // the first candidate's answer has its captions here too
  await expect.poll(async () => (await captionsOf(answerCard(0, q1).getByLabel("Answer video"))).readyState, { timeout: 30_000 }).toBe(2);
  await page.screenshot({ path: "test-results/compare-captions-compare.png", fullPage: true });
  await expectAccessible(page, "the comparison of three candidates");

  await page.keyboard.press("]");
  await expect(answerCard(1, q1)).toHaveAttribute("aria-current", "true");
  await expect(answerCard(1, q1)).toBeFocused();
  await page.keyboard.press("]");
  await expect(answerCard(2, q1)).toHaveAttribute("aria-current", "true");
  // the last column: ] stays
  await page.keyboard.press("]");
  await expect(answerCard(2, q1)).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("[");
  await expect(answerCard(1, q1)).toHaveAttribute("aria-current", "true");

  // K plays the current answer, and again pauses it
  const middlePlayer = answerCard(1, q1).getByLabel("Answer video");
  await middlePlayer.evaluate((node) => ((node as HTMLVideoElement).muted = true));
  await page.keyboard.press("k");
  await expect.poll(() => middlePlayer.evaluate((node) => (node as HTMLVideoElement).paused)).toBe(false);
  await page.keyboard.press("k");
  await expect.poll(() => middlePlayer.evaluate((node) => (node as HTMLVideoElement).paused)).toBe(true);

  // N walks left to right, then on to the next question; 1 to 5 rate the current answer, for its own candidate
  await page.keyboard.press("n");
  await page.keyboard.press("n");
  await expect(answerCard(0, q2)).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("4");
  await page.keyboard.press("]");
  await page.keyboard.press("]");
  await expect(answerCard(2, q2)).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("2");
  await expect(answerCard(0, q2).getByRole("radio", { name: "4 stars" })).toBeChecked();
  await expect(answerCard(2, q2).getByRole("radio", { name: "2 stars" })).toBeChecked();
  await expect
    .poll(async () =>
      (await su.collection("ratings").getFullList({ filter: su.filter("manager = {:m}", { m: world.manager.user.id }), sort: "created" })).map((r) => ({
        answer: r.answer,
        candidate: r.candidate,
        stars: r.stars,
      })),
    )
    .toEqual([
      { answer: answers[0]!.text.id, candidate: ids[0], stars: 4 },
      { answer: answers[2]!.text.id, candidate: ids[2], stars: 2 },
    ]);
  await page.keyboard.press("p");
  await expect(answerCard(1, q2)).toHaveAttribute("aria-current", "true");

  // the help lists the same keys
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toContainText("Next candidate's answer to the same question");
  await expect(help).toContainText("Rate the current answer 1 to 5 stars");
  await page.keyboard.press("Escape");

  // another company's candidate in the link: named as not found, nothing of them shown
  const other = await reviewWorld();
  await page.goto(`/companies/${world.company.id}/jobs/${world.job.id}/compare?candidates=${[ids[0], other.candidate.id].join(",")}`);
  await expect(page.getByRole("alert").filter({ hasText: "in this link" })).toHaveText(
    "One candidate in this link could not be found: the invitation may have been deleted, or it belongs to a company you don't manage.",
  );
  await expect(page.getByRole("list", { name: "Compared candidates" }).getByRole("heading", { level: 2 })).toHaveText([emails[0]!]);
  await expect(page.getByText(other.candidate.email as string)).toHaveCount(0);
});
