// Issue 19 point 6, in real Chromium: a manager exports a candidate's data from the review (the download is saved
// and its listing read), sees the export in the company's audit log, then erases the candidate: the review is gone,
// the pipeline no longer lists them, and the audit log shows both, by internal id.
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { readZip } from "../tests/zip-reader";
import { expectAccessible } from "./a11y";
import { answerWithText, answerWithVideo, reviewWorld } from "./review-support";
import { fixturePath, signInBrowser, superuser } from "./support";

test.describe.configure({ timeout: 180_000 });

test("a manager exports a candidate's data as a zip, then erases the candidate; the audit log shows both", async ({ page }) => {
  const world = await reviewWorld();
  const webm = new Uint8Array(readFileSync(fixturePath("answer.webm")));
  const { answer: videoAnswer } = await answerWithVideo(world.key, world.questions.video.id, webm);
  const textAnswer = await answerWithText(world.key, world.questions.text.id, "Because I enjoy helping people.");

  await signInBrowser(page, world.manager.pb);
  await page.goto(`/companies/${world.company.id}/jobs/${world.job.id}/candidates/${world.candidate.id}`);
  await expect(page.getByRole("heading", { level: 1, name: world.candidate.email })).toBeVisible();

  // Export: the browser downloads candidate-{id}.zip; its listing and contents are the candidate's
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export data" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`candidate-${world.candidate.id}.zip`);
  const zip = readZip(readFileSync(await download.path()));
  // the media worker may have written a transcript already (transcripts/...): the rest is fixed
  expect([...zip.keys()].filter((name) => !name.startsWith("transcripts/")).sort()).toEqual(
    ["README.txt", "answers.json", "candidate.json", "comments.json", "decision.json", "job.json", "messages.json", "ratings.json", `videos/1-${videoAnswer.id}.webm`].sort(),
  );
  // the original file (the worker may have made it seekable in place by now): a WebM of about the uploaded size
  const video = zip.get(`videos/1-${videoAnswer.id}.webm`)!;
  expect([...video.subarray(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]);
  expect(video.length).toBeGreaterThan(webm.length / 2);
  const answers = JSON.parse(zip.get("answers.json")!.toString("utf8")) as { id: string; questionTitle: string; text?: string }[];
  expect(answers.map((a) => [a.id, a.questionTitle])).toEqual([
    [videoAnswer.id, "Introduce yourself"],
    [textAnswer.id, "Why us?"],
  ]);
  expect(answers[1]!.text).toBe("Because I enjoy helping people.");
  await expect(page.getByText("Export downloaded")).toBeVisible();

  await expectAccessible(page, "the review with 'Export data' and 'Erase candidate'");

  // Erase: the dialog says plainly that everything goes and it cannot be undone
  await page.getByRole("button", { name: "Erase candidate" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Erase this candidate?" });
  await expect(dialog).toContainText("This removes everything and cannot be undone.");
  // once its opening animation is over (axe would measure the colours half faded in)
  await expect(dialog).toHaveCSS("opacity", "1");
  await expectAccessible(page, "the open 'Erase this candidate?' dialog", '[role="alertdialog"]');
  await dialog.getByRole("button", { name: "Erase everything" }).click();
  // back to the job's pipeline, which no longer lists them
  await expect(page).not.toHaveURL(new RegExp(world.candidate.id));
  await expect(page).toHaveURL(new RegExp(`/jobs/${world.job.id}`));
  await expect(page.getByText(world.candidate.email)).toHaveCount(0);
  const su = await superuser();
  expect((await su.collection("candidates").getList(1, 1, { filter: su.filter("id = {:id}", { id: world.candidate.id }) })).totalItems).toBe(0);
  expect((await su.collection("answers").getList(1, 1, { filter: su.filter("candidate = {:id}", { id: world.candidate.id }) })).totalItems).toBe(0);

  // The audit log, from the company settings: the export and the erasure, by the manager, naming the candidate by id
  await page.goto(`/companies/${world.company.id}/edit`);
  await page.getByRole("navigation", { name: "Company settings" }).getByText("Audit log").click();
  await expect(page).toHaveURL(new RegExp(`/companies/${world.company.id}/audit-log$`));
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText("Erased candidate");
  await expect(rows.nth(2)).toContainText("Exported data");
  for (const i of [1, 2]) {
    await expect(rows.nth(i)).toContainText("Maria Manager");
    await expect(rows.nth(i)).toContainText(world.candidate.id);
  }
  await expect(page.getByRole("table")).not.toContainText(world.candidate.email);
  await expectAccessible(page, "the audit log");
});
