// Issue 16 point 3, history stays true: a manager rewords a question candidates already answered; the review still
// shows the question as the candidate was asked it. And a question with answers is archived, not deleted.
import { expect, test } from "@playwright/test";
import { answerWithText, reviewWorld } from "./review-support";
import { signInBrowser } from "./support";

test("the review of an answered question shows the title the candidate saw, after the manager renamed it", async ({ page }) => {
  const world = await reviewWorld();
  await answerWithText(world.key, world.questions.text.id, "Because I enjoy helping people.");

  await signInBrowser(page, world.manager.pb);
  await page.goto(`/companies/${world.company.id}/questions/${world.questions.text.id}/edit`);
  const title = page.getByLabel("Title");
  await expect(title).toHaveValue("Why us?");
  await title.fill("What would you change in our product?");
  await page.getByRole("button", { name: "Update Question" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Questions" })).toBeVisible();
  await expect(page.getByRole("rowheader", { name: "What would you change in our product?" })).toBeVisible();

  await page.goto(`/companies/${world.company.id}/jobs/${world.job.id}/candidates/${world.candidate.id}`);
  await expect(page.getByRole("heading", { level: 1, name: world.candidate.email })).toBeVisible();
  const answered = page.getByRole("region", { name: "2. Why us?" });
  await expect(answered.getByText("Because I enjoy helping people.")).toBeVisible();
  await expect(page.getByRole("heading", { name: /What would you change in our product\?/ })).toHaveCount(0);
  // a question nobody answered reads as it is now
  await expect(page.getByRole("region", { name: "3. Anything else?" }).getByText("No answer")).toBeVisible();

  // The answered question cannot be deleted: the dialog offers to archive it, which hides it from the list.
  await page.goto(`/companies/${world.company.id}/questions`);
  await page.getByRole("button", { name: "Delete What would you change in our product?" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog.getByText(/Candidates have given 1 answer to "What would you change in our product\?"/)).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Delete question" })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Archive question" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("rowheader", { name: "What would you change in our product?" })).toHaveCount(0);
  await page.getByLabel("Show archived questions").check();
  await expect(page.getByRole("rowheader", { name: "What would you change in our product?" })).toBeVisible();

  // ... and the review still shows it, with its answer
  await page.goto(`/companies/${world.company.id}/jobs/${world.job.id}/candidates/${world.candidate.id}`);
  await expect(page.getByRole("region", { name: "2. Why us?" }).getByText("Because I enjoy helping people.")).toBeVisible();
});
