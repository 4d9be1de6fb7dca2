// Issue 17 points 1, 5-8, the manager's side, in a real browser against the real stack: the job's response time and
// welcome message on the job detail, an invite with its own deadline and extra time and takes, the deadline extended
// on the review, the invitation withdrawn (the candidate's link closes) and restored, the adjustments changed. What
// the browser shows is checked against what the server stored and what the candidate's link answers.
import { expect, test, type Page } from "@playwright/test";
import { E2E } from "../scripts/lib/e2e-ports.mjs";
import { expectAccessible } from "./a11y";
import { createCompany, createQuestion, createUser, keyOf, signInBrowser, superuser, uniqueEmail } from "./support";

// Deadlines are typed and shown in the manager's time zone: UTC here, so the stored values are known.
test.use({ timezoneId: "UTC" });

type Interview = {
  deadline: string;
  closed: null | { reason: string; at: string };
  questions: { id: string; timeout: number; takes: number; untimed: boolean }[];
};

async function interviewOf(key: string): Promise<Interview> {
  const res = await fetch(`${E2E.appUrl}/api/screenroom/interviews/${encodeURIComponent(key)}`, { headers: { "X-Candidate-Key": key } });
  expect(res.status).toBe(200);
  return (await res.json()) as Interview;
}

async function storedCandidate(id: string) {
  const su = await superuser();
  return su.collection("candidates").getOne(id);
}

const invitation = (page: Page) => page.getByTestId("invitation-panel");

test("a manager sets a response time, invites with a deadline and extra time, extends, withdraws and restores", async ({ page }) => {
  const manager = await createUser({ firstName: "Maria", lastName: "Manager" });
  const company = await createCompany(manager.pb, "Deadline Co");
  const video = await createQuestion(manager.pb, company.id, "video", { title: "Introduce yourself", timeout: 60, takes: 2 });
  const job = await manager.pb.collection("jobs").create({
    company: company.id,
    title: "Support engineer",
    description: "Help our customers.",
    location: "Remote",
    questions: [video.id],
  });
  await signInBrowser(page, manager.pb);

  // The job form: a response time of 5 days and a welcome message, both shown on the job detail.
  await page.goto(`/companies/${company.id}/jobs/${job.id}/edit`);
  await page.getByLabel("Response time (days)").fill("400");
  await page.getByRole("button", { name: "Update Job" }).click();
  await expect(page.getByText("Please enter a response time of 0 to 365 days")).toBeVisible();
  await page.getByLabel("Response time (days)").fill("5");
  await page.getByLabel("Welcome message (optional)").fill("Welcome! Take your time.");
  await expectAccessible(page, "the job form with a response time");
  await page.getByRole("button", { name: "Update Job" }).click();
  await expect(page).toHaveURL(new RegExp(`/companies/${company.id}/jobs$`));
  expect((await manager.pb.collection("jobs").getOne(job.id)).responseDays).toBe(5);

  await page.goto(`/companies/${company.id}/jobs/${job.id}`);
  await expect(page.getByText("5 days after the invite")).toBeVisible();
  await expect(page.getByTestId("job-welcome-message")).toHaveText("Welcome! Take your time.");
  await expect(page.getByRole("cell", { name: "Video · 30 s to prepare · 1 min · 2 takes" })).toBeVisible();

  // The invite form: the deadline starts 5 days from now; a past one is refused on its field.
  const deadline = page.getByLabel("Deadline", { exact: true });
  const prefilled = await deadline.inputValue();
  const days = (new Date(`${prefilled}Z`).getTime() - Date.now()) / 86_400_000;
  expect(days, `pre-filled ${prefilled}`).toBeGreaterThan(4.9);
  expect(days).toBeLessThan(5.1);
  const email = uniqueEmail("invited");
  await page.getByLabel("Email").fill(email);
  await deadline.fill("2020-01-01T09:00");
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(page.getByText("The deadline must be in the future.")).toBeVisible();
  await deadline.fill("2030-12-01T17:00");
  await page.getByLabel("Extra time").selectOption({ label: "2× time" });
  await page.getByLabel("Extra takes").fill("2");
  await expectAccessible(page, "the job detail with the invite form");
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(page.getByText(`Interview invitation sent to ${email}`)).toBeVisible();

  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: email }) });
  await expect(row).toContainText("Due 1 December 2030, 17:00");
  const candidates = await manager.pb.collection("candidates").getFullList({ filter: manager.pb.filter("job = {:job}", { job: job.id }) });
  expect(candidates).toHaveLength(1);
  const candidate = candidates[0]!;
  expect(candidate.deadline).toBe("2030-12-01 17:00:00.000Z");
  expect(candidate.extraTime).toBe("2");
  expect(candidate.extraTakes).toBe(2);
  // the candidate sees only the resulting time and takes
  const key = await keyOf(candidate.id);
  const granted = await interviewOf(key);
  expect(granted.questions.map(({ timeout, takes }) => ({ timeout, takes }))).toEqual([{ timeout: 120, takes: 4 }]);

  // The review: the deadline and the adjustments; the deadline extended.
  await row.getByRole("link", { name: email }).click();
  await expect(page.getByRole("heading", { level: 1, name: email })).toBeVisible();
  await expect(invitation(page)).toContainText("Due 1 December 2030, 17:00");
  await expect(page.getByTestId("adjustments-text")).toHaveText("Adjustments: 2× time, 2 extra takes");
  await expectAccessible(page, "the review with the invitation");

  await invitation(page).getByRole("button", { name: "Extend deadline" }).click();
  const dialog = page.getByRole("dialog", { name: "Extend deadline" });
  await expect(dialog.getByLabel("New deadline")).toHaveValue("2030-12-01T17:00");
  await dialog.getByLabel("New deadline").fill("2031-01-15T09:30");
  await expectAccessible(page, "the extend deadline dialog");
  await dialog.getByRole("button", { name: "Save deadline" }).click();
  await expect(dialog).toBeHidden();
  await expect(invitation(page)).toContainText("Due 15 January 2031, 09:30");
  expect((await storedCandidate(candidate.id)).deadline).toBe("2031-01-15 09:30:00.000Z");

  // Withdraw: the confirmation says what it does; the link closes; the pipeline row says 'Withdrawn'.
  await invitation(page).getByRole("button", { name: "Withdraw invitation" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Withdraw the invitation?" });
  await expect(confirm).toContainText("closes at once");
  await expect(confirm).toContainText("no more reminders are sent");
  await expect(confirm).toContainText("You can restore the invitation later");
  await expectAccessible(page, "the withdraw confirmation");
  await confirm.getByRole("button", { name: "Withdraw invitation" }).click();
  await expect(invitation(page).getByText("Withdrawn", { exact: true })).toBeVisible();
  const withdrawn = await storedCandidate(candidate.id);
  expect(withdrawn.withdrawn).toBe(true);
  expect(withdrawn.withdrawnAt).not.toBe("");
  expect((await interviewOf(key)).closed?.reason).toBe("withdrawn");
  await expectAccessible(page, "the review of a withdrawn invitation");

  await page.getByRole("link", { name: "Support engineer" }).click();
  const withdrawnRow = page.getByRole("row").filter({ has: page.getByRole("link", { name: email }) });
  await expect(withdrawnRow.getByText("Withdrawn", { exact: true })).toBeVisible();
  await expectAccessible(page, "the pipeline with a withdrawn invitation");

  // Restore: the link opens again with the same deadline.
  await withdrawnRow.getByRole("link", { name: email }).click();
  await invitation(page).getByRole("button", { name: "Restore invitation" }).click();
  await expect(invitation(page)).toContainText("Due 15 January 2031, 09:30");
  const restored = await storedCandidate(candidate.id);
  expect(restored.withdrawn).toBe(false);
  expect(restored.withdrawnAt).toBe("");
  expect((await interviewOf(key)).closed).toBeNull();

  // The adjustments changed in place.
  await invitation(page).getByRole("button", { name: "Change adjustments" }).click();
  await invitation(page).getByLabel("Extra time").selectOption({ label: "1.5× time" });
  await invitation(page).getByLabel("Extra takes").fill("11");
  await invitation(page).getByRole("button", { name: "Save adjustments" }).click();
  await expect(invitation(page).getByText("Please enter 0 to 10 extra takes")).toBeVisible();
  await invitation(page).getByLabel("Extra takes").fill("0");
  await invitation(page).getByRole("button", { name: "Save adjustments" }).click();
  await expect(page.getByTestId("adjustments-text")).toHaveText("Adjustments: 1.5× time");
  const adjusted = await storedCandidate(candidate.id);
  expect([adjusted.extraTime, adjusted.extraTakes]).toEqual(["1.5", 0]);
  expect((await interviewOf(key)).questions.map(({ timeout, takes }) => ({ timeout, takes }))).toEqual([{ timeout: 90, takes: 2 }]);
});
