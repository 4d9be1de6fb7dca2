// A restore of the server's database from its replica loses the answers confirmed in its last second or so; the
// candidate's device keeps each confirmed answer for a day and sends again what the server lost when the link is
// opened again (docs/decisions/device-keeps-confirmed-answers.md). In Chromium with its fake camera: the candidate
// answers a video question (one take allowed, so the take counted the first time would refuse it as new) and a text
// question; a superuser deletes both answers as the restore would have lost them; the candidate opens the link again:
// both are on the server again under their ids, the video with the very bytes recorded, and the candidate reads one
// line saying so. Opening the link once more sends nothing and says nothing.
import { expect, test, type Page } from "@playwright/test";
import { kindOf, recordTake, seedInterview, stillSending, storedAnswers, waitForAnswers } from "./interview-support";
import { superuser } from "./support";

/** The device's kept copy of an answer, read from the interview's IndexedDB in the page. */
async function keptOnDevice(page: Page, answerId: string) {
  return page.evaluate(async (id) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open("screenroom");
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error ?? new Error("IndexedDB failed"));
    });
    const get = (store: string) =>
      new Promise<unknown>((resolve, reject) => {
        const request = db.transaction(store).objectStore(store).get(id);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error ?? new Error("IndexedDB failed"));
      });
    const kept = (await get("kept")) as { receipt: string; confirmedAt: number } | undefined;
    const take = (await get("takes")) as { file: Blob } | undefined;
    db.close();
    const bytes = take ? await take.file.arrayBuffer() : new ArrayBuffer(0);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    return { receipt: kept?.receipt ?? null, size: bytes.byteLength, sha256: Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("") };
  }, answerId);
}

/**
 * Records, in the page, each answer the page posts with a file: its id, receipt and the file's SHA-256 (what went
 * over the wire: the form the page's XMLHttpRequest sends).
 */
async function recordPostedFiles(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __posted: Promise<{ id: string; receipt: string; sha256: string }>[] };
    w.__posted = [];
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
      const file = body instanceof FormData ? body.get("file") : null;
      if (body instanceof FormData && file instanceof Blob) {
        w.__posted.push(
          file.arrayBuffer().then(async (bytes) => ({
            id: String(body.get("id")),
            receipt: String(body.get("receipt") ?? ""),
            sha256: Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)), (b) => b.toString(16).padStart(2, "0")).join(""),
          })),
        );
      }
      return send.call(this, body);
    };
  });
}

const postedFiles = (page: Page) => page.evaluate(() => Promise.all((window as unknown as { __posted: Promise<{ id: string; receipt: string; sha256: string }>[] }).__posted));

/** The video the media worker made of an answer (its duration set), read as a superuser. */
async function processedDuration(candidate: string, answerId: string): Promise<number> {
  let duration = 0;
  await expect
    .poll(
      async () => {
        const answer = (await storedAnswers(candidate)).find((a) => a.id === answerId);
        const video = answer ? kindOf(answer, "video_answers_via_answer") : undefined;
        duration = (video?.durationSeconds as number | undefined) ?? 0;
        return video?.transcriptStatus;
      },
      { timeout: 90_000 },
    )
    .toBe("done");
  return duration;
}

test("answers the server lost in a restore are sent again from the device when the link is opened again", async ({ page }) => {
  const { candidate, key, questions } = await seedInterview([
    { kind: "video", title: "Introduce yourself", timeout: 60, takes: 1 },
    { kind: "text", title: "Why us?", timeout: 60 },
  ]);
  const [videoQuestion, textQuestion] = questions;

  await page.goto(`/candidates/${key}/questions/${videoQuestion!.id}`);
  await page.getByRole("button", { name: "View question" }).click();
  await recordTake(page);
  await page.getByRole("button", { name: "Submit answer" }).click();
  await expect(page).toHaveURL(new RegExp(`/questions/${textQuestion!.id}$`));
  await page.getByRole("button", { name: "View question" }).click();
  await page.getByLabel("Your answer").fill("Because you make interviews fair.");
  await page.getByRole("button", { name: "Submit answer" }).click();
  await expect(page.getByRole("heading", { name: "Thank you" })).toBeVisible();
  await expect(stillSending(page)).toHaveCount(0, { timeout: 30_000 });
  const first = await waitForAnswers(candidate.id, 2);
  const videoAnswer = first.find((a) => a.question === videoQuestion!.id)!;
  const textAnswer = first.find((a) => a.question === textQuestion!.id)!;
  const firstDuration = await processedDuration(candidate.id, videoAnswer.id);

  // the device kept both, each with the server's receipt, the video with its recording
  const keptVideo = await keptOnDevice(page, videoAnswer.id);
  expect(keptVideo.receipt).toMatch(/^v1\./);
  expect(keptVideo.size).toBeGreaterThan(10_000);
  expect((await keptOnDevice(page, textAnswer.id)).receipt).toMatch(/^v1\./);

  // the restore: both answers were confirmed in the last second before the disk was lost
  const su = await superuser();
  for (const answer of [videoAnswer, textAnswer]) await su.collection("answers").delete(answer.id);
  expect(await storedAnswers(candidate.id)).toHaveLength(0);

  let posted = 0;
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().endsWith("/api/screenroom/answers")) posted += 1;
  });
  await recordPostedFiles(page);
  await page.goto(`/candidates/${key}`);
  await expect(page.getByText("We re-sent 2 answers that the server had lost.")).toBeVisible({ timeout: 60_000 });
  const again = await waitForAnswers(candidate.id, 2);
  expect(again.map((a) => a.id).sort()).toEqual([videoAnswer.id, textAnswer.id].sort());
  expect(kindOf(again.find((a) => a.id === textAnswer.id)!, "text_answers_via_answer")?.content).toBe("Because you make interviews fair.");
  // the recording the device kept went whole, with the receipt, and the worker makes of it the video it made the first time
  expect(await postedFiles(page)).toEqual([{ id: videoAnswer.id, receipt: keptVideo.receipt, sha256: keptVideo.sha256 }]);
  expect(posted).toBe(2);
  expect(await processedDuration(candidate.id, videoAnswer.id)).toBeCloseTo(firstDuration, 1);

  // the next visit finds everything on the server: nothing is sent, nothing said
  const sentBefore = posted;
  await page.goto(`/candidates/${key}`);
  await expect(page.getByRole("heading").first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(posted).toBe(sentBefore);
  await expect(page.getByText(/We re-sent/)).toHaveCount(0);
  expect(await storedAnswers(candidate.id)).toHaveLength(2);
});
