import { expect, test } from "@playwright/test";

import { createCompany, createUser, keyOf, linksIn, pathOf, signInBrowser, superuser, uniqueEmail, waitForMail } from "./support";
import { dragOnto, fillQuestionForm, keyboardMove, listedTitles } from "./questions-jobs-support";

const Q1 = "Tell us about yourself";
const Q2 = "Describe a hard bug you fixed";
const Q3 = "Why do you want to work here?";
const Q4 = "Where do you see yourself in five years?";

/** The stored kind of a question: which kind records the server holds for it. */
async function storedKind(companyId: string, questionTitle: string) {
  const su = await superuser();
  const question = await su
    .collection("questions")
    .getFirstListItem(su.filter("company = {:c} && title = {:t}", { c: companyId, t: questionTitle }));
  const video = await su.collection("video_questions").getFullList({ filter: su.filter("question = {:q}", { q: question.id }) });
  const text = await su.collection("text_questions").getFullList({ filter: su.filter("question = {:q}", { q: question.id }) });
  return { video: video.map((v) => v.takes as number), text: text.length };
}

test("a manager builds a question bank and a job, orders its questions and invites a candidate", async ({ page }) => {
  const { pb } = await createUser();
  const company = await createCompany(pb, "Acme Screening");
  await signInBrowser(page, pb);
  const questionsHref = `/companies/${company.id}/questions`;

  // The question bank: two video questions and one text question.
  await page.goto(questionsHref);
  await expect(page.getByRole("heading", { level: 1, name: "Questions" })).toBeVisible();
  for (const fields of [
    { title: Q1, description: "Introduce yourself in a minute.", timeout: 60, kind: "video" as const, takes: 2 },
    { title: Q2, description: "Walk us through the bug and the fix.", timeout: 120, kind: "video" as const },
    { title: Q3, description: "A few sentences are enough.", timeout: 300, kind: "text" as const },
  ]) {
    await page.getByRole("link", { name: "Add Question" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "New question" })).toBeVisible();
    // New forms start at 5 seconds and 3 takes (spec §9).
    await expect(page.getByLabel("Timeout (seconds)")).toHaveValue("5");
    await expect(page.getByLabel("Takes")).toHaveValue("3");
    await fillQuestionForm(page, fields);
    if (fields.kind === "text") await expect(page.getByLabel("Takes")).toBeHidden();
    await page.getByRole("button", { name: "Create Question" }).click();
    await expect(page).toHaveURL(new RegExp(`${questionsHref}$`));
    await expect(page.getByRole("rowheader", { name: fields.title })).toBeVisible();
  }
  expect(await storedKind(company.id, Q1)).toEqual({ video: [2], text: 0 });
  expect(await storedKind(company.id, Q2)).toEqual({ video: [3], text: 0 });
  expect(await storedKind(company.id, Q3)).toEqual({ video: [], text: 1 });

  // Change one question's kind to text and back: the server swaps the kind records each time.
  await page.getByRole("link", { name: `Edit ${Q2}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit question" })).toBeVisible();
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue(Q2);
  await page.getByRole("radio", { name: "Text" }).check();
  await expect(page.getByLabel("Takes")).toBeHidden();
  await page.getByRole("button", { name: "Update Question" }).click();
  await expect(page).toHaveURL(new RegExp(`${questionsHref}$`));
  expect(await storedKind(company.id, Q2)).toEqual({ video: [], text: 1 });

  await page.getByRole("link", { name: `Edit ${Q2}` }).click();
  await expect(page.getByRole("radio", { name: "Text" })).toBeChecked();
  await page.getByRole("radio", { name: "Video" }).check();
  await expect(page.getByLabel("Takes")).toHaveValue("1");
  await page.getByRole("button", { name: "Update Question" }).click();
  await expect(page).toHaveURL(new RegExp(`${questionsHref}$`));
  expect(await storedKind(company.id, Q2)).toEqual({ video: [1], text: 0 });

  // A job: its questions through the picker and through 'Create new question'.
  await page.goto(`/companies/${company.id}/jobs`);
  await expect(page.getByRole("link", { name: "Add your first job" })).toBeVisible();
  await page.getByRole("link", { name: "Add Job" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Create job" })).toBeVisible();
  await page.getByLabel("Title", { exact: true }).fill("Senior Frontend Engineer");
  await page.getByLabel("Description", { exact: true }).fill("Build the product our customers use every day.");
  await page.getByLabel("Location").fill("Remote, Europe");
  await page.getByRole("button", { name: "Create Job" }).click();
  await expect(page.getByText("Please add at least one question")).toBeVisible();

  await page.getByRole("button", { name: "Add", exact: true }).click();
  const picker = page.getByRole("dialog", { name: "Add questions" });
  for (const title of [Q1, Q2, Q3]) await picker.getByLabel(title).check();
  await picker.getByRole("button", { name: "Add selected" }).click();
  await expect(picker).toBeHidden();
  await expect(page.getByText("Please add at least one question")).toBeHidden();

  // The picker leaves out questions already in the job.
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(picker.getByText("Every question of your company is already in this job.")).toBeVisible();
  await picker.getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("button", { name: "Create new question" }).click();
  const creator = page.getByRole("dialog", { name: "Create new question" });
  await fillQuestionForm(creator, { title: Q4, description: "Be honest, we are curious.", kind: "text" });
  await creator.getByRole("button", { name: "Create Question" }).click();
  await expect(creator).toBeHidden();
  // Still on the job form, with the new question appended.
  await expect(page).toHaveURL(/\/jobs\/new$/);
  const added = await listedTitles(page);
  expect(added).toHaveLength(4);
  expect(added.slice(0, 3).sort()).toEqual([Q1, Q2, Q3].sort());
  expect(added[3]).toBe(Q4);

  // Reorder by mouse: dropping the first on the third swaps the two.
  const [a, b, c, d] = added as [string, string, string, string];
  await dragOnto(page, a, c);
  await expect.poll(() => listedTitles(page)).toEqual([c, b, a, d]);
  // By keyboard: 25 px steps up take the last question over the third; space swaps them.
  await keyboardMove(page, d, "ArrowUp", 6, a);
  await expect(page.locator('[id^="DndLiveRegion"]')).toContainText(`Question "${d}" was swapped with question "${a}"`);
  await expect.poll(() => listedTitles(page)).toEqual([c, b, d, a]);

  // Remove one, then save.
  await page.getByRole("button", { name: `Remove ${b}`, exact: true }).click();
  await expect.poll(() => listedTitles(page)).toEqual([c, d, a]);
  await page.getByRole("button", { name: "Create Job" }).click();
  await expect(page).toHaveURL(new RegExp(`/companies/${company.id}/jobs/[a-z0-9]{15}$`));
  const jobUrl = page.url();

  // The order is kept, on the job detail after a reload and on the edit form.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Senior Frontend Engineer" })).toBeVisible();
  const questionsTable = page.getByRole("table", { name: "Questions" });
  await expect(questionsTable.getByRole("rowheader")).toHaveText([c, d, a]);
  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit job" })).toBeVisible();
  await expect.poll(() => listedTitles(page)).toEqual([c, d, a]);
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(jobUrl);

  // Invite a candidate; the table updates in place and a second invite is refused.
  const candidateEmail = uniqueEmail("candidate");
  await page.getByLabel("Email", { exact: true }).fill(candidateEmail);
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  const candidateLink = page.getByRole("table", { name: "Candidates" }).getByRole("link", { name: candidateEmail });
  await expect(candidateLink).toBeVisible();
  const reviewHref = await candidateLink.getAttribute("href");
  // the review link carries the candidate's place in the pipeline (i=0: first in the default order)
  expect(reviewHref).toMatch(new RegExp(`^/companies/${company.id}/jobs/[a-z0-9]{15}/candidates/[a-z0-9]{15}\\?i=0$`));
  const candidateId = reviewHref!.split("?")[0]!.split("/").pop()!;

  await page.getByLabel("Email", { exact: true }).fill(candidateEmail);
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(page.getByText("This candidate has already been invited")).toBeVisible();

  // A job that cannot be loaded says what happened in place of the page, inside the shell (issue 16).
  await page.goto(`/companies/${company.id}/jobs/nosuchjob000000`);
  await expect(page.getByRole("alert")).toHaveText(
    "This job could not be found: it may have been deleted, or it belongs to a company you don't manage.",
  );
  await expect(page.getByRole("link", { name: "Screenroom" })).toBeVisible();

  // The interview e-mail names the company and the job, and links to the interview.
  const mail = await waitForMail(candidateEmail);
  expect(mail.html).toContain("Acme Screening");
  expect(mail.html).toContain("Senior Frontend Engineer");
  const interviewLink = linksIn(mail).find((link) => link.includes("/candidates/"));
  expect(interviewLink).toBeDefined();
  // the link carries the candidate's key, not the record id the review link names
  const key = await keyOf(candidateId);
  expect(key).toMatch(/^[a-zA-Z0-9]{40}$/);
  expect(interviewLink).not.toContain(candidateId);
  await page.goto(pathOf(interviewLink!));
  await expect(page).toHaveURL(new RegExp(`/candidates/${key}$`));
  await expect(page.getByRole("heading", { name: "Interview at Acme Screening" })).toBeVisible();
});
