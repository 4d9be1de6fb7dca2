// Issue 19 point 5 in real Chromium: a manager closes a job from its detail (after the confirmation that says what
// closing does); the job shows 'Closed', its invite form is off with the reason, and the candidate's link shows the
// polite closed page; reopening gives the candidate the interview back.
import { expect, test } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { seedInterview } from "./interview-support";
import { signInBrowser } from "./support";

test("a manager closes a job, its candidate's link shows the closed page, and reopening gives the interview back", async ({ page, browser }) => {
  const { manager, company, job, key } = await seedInterview([{ kind: "text", title: "Why this job", timeout: 60 }]);
  await signInBrowser(page, manager.pb);
  await page.goto(`/companies/${company.id}/jobs/${job.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Support engineer" })).toBeVisible();

  await page.getByRole("button", { name: "Close job" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Close Support engineer?" });
  await expect(dialog).toContainText("Nothing is deleted");
  await dialog.getByRole("button", { name: "Close job" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Closed");
  await expect(page.getByText(/so no one new can be invited\. Reopen the job to invite candidates\./)).toBeVisible();
  await expect(page.getByRole("button", { name: "Invite", exact: true })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Reopen job" })).toBeVisible();
  await expectAccessible(page, "closed job detail");

  // the jobs list marks it too
  await page.goto(`/companies/${company.id}/jobs`);
  await expect(page.getByRole("row", { name: /Support engineer/ }).getByText("Closed", { exact: true })).toBeVisible();

  // the candidate, in a browser of their own
  const candidateContext = await browser.newContext();
  const candidatePage = await candidateContext.newPage();
  await candidatePage.goto(`/candidates/${key}`);
  await expect(candidatePage.getByRole("heading", { name: "Globex Hiring has closed this job" })).toBeVisible();
  await expect(candidatePage.getByText(/The interview for this job no longer takes answers/)).toBeVisible();
  await expect(candidatePage.getByRole("button", { name: "Start Interview" })).toHaveCount(0);
  await expectAccessible(candidatePage, "closed interview (job closed)");

  // reopened: the job is open again and the candidate's link starts the interview
  await page.goto(`/companies/${company.id}/jobs/${job.id}`);
  await page.getByRole("button", { name: "Reopen job" }).click();
  await expect(page.getByRole("button", { name: "Close job" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Invite", exact: true })).toBeEnabled();
  await candidatePage.reload();
  await expect(candidatePage.getByRole("button", { name: "Start Interview" })).toBeVisible();
  await candidateContext.close();
});
