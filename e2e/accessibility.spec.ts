// Issue 8: axe-core over every screen of the journeys (no serious or critical WCAG A/AA violation),
// and the interview taken with the keyboard alone.
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { consentAs, createCompany, createQuestion, createUser, keyOf, signInBrowser, superuser, uniqueEmail } from "./support";

async function audit(page: Page, path: string, ready: (page: Page) => Promise<unknown>) {
  await page.goto(path);
  await ready(page);
  await expectAccessible(page, path);
}

const heading = (name: string | RegExp) => (page: Page) => expect(page.getByRole("heading", { name }).first()).toBeVisible();

async function world() {
  const manager = await createUser({ firstName: "Audra", lastName: "Auditor" });
  const company = await createCompany(manager.pb, "Audit Inc");
  const video = await createQuestion(manager.pb, company.id, "video", { title: "Introduce yourself", timeout: 30 });
  const text = await createQuestion(manager.pb, company.id, "text", { title: "Why us?", timeout: 120 });
  const job = await manager.pb.collection("jobs").create({
    company: company.id,
    title: "Auditor",
    description: "Check things",
    location: "Remote",
    questions: [video.id, text.id],
  });
  const candidate = await manager.pb.collection("candidates").create({ job: job.id, email: uniqueEmail("audited") });
  const key = await keyOf(candidate.id);
  // agreed on the start screen (issue 17): the audit opens the questions directly
  await consentAs(key);
  return { manager, company, video, text, job, candidate, key };
}

test("signed-out screens, with their validation messages showing", async ({ page }) => {
  await audit(page, "/auth/sign-in", heading("Sign In"));
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Please enter a valid email address.")).toBeVisible();
  await expectAccessible(page, "/auth/sign-in with errors");

  await audit(page, "/auth/sign-up", heading(/Sign Up/i));
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByText("Email is invalid")).toBeVisible();
  await expectAccessible(page, "/auth/sign-up with errors");

  await audit(page, "/auth/sign-up?invite=abc&email=b%40example.com", (p) => expect(p.getByRole("button", { name: "Accept invitation" })).toBeVisible());
  await audit(page, "/auth/reset-password", heading(/Reset Password/i));
  await audit(page, "/auth/confirm-password-reset/not-a-token", heading(/password/i));
  await audit(page, "/invites/abc/b%40example.com", heading("Company invitation"));
  await audit(page, "/no/such/page", (p) => expect(p.getByText("404: No such page!")).toBeVisible());
});

test("candidate screens: start, intro, text answer, camera, finish, invalid link", async ({ page }) => {
  const { key, video, text } = await world();
  await audit(page, `/candidates/${key}`, heading("Interview at Audit Inc"));
  await audit(page, `/candidates/${key}/questions/${video.id}`, (p) => expect(p.getByRole("button", { name: "View question" })).toBeVisible());
  await page.getByRole("button", { name: "View question" }).click();
  await expect(page.getByRole("button", { name: "Start Recording" })).toBeVisible();
  await expectAccessible(page, "video answer form");
  await page.goto(`/candidates/${key}/questions/${text.id}`);
  await page.getByRole("button", { name: "View question" }).click();
  await expect(page.getByLabel("Your answer")).toBeVisible();
  await expectAccessible(page, "text answer form");
  await audit(page, `/candidates/${key}/finish`, heading("Thank you"));
  await audit(page, "/candidates/nosuchcandidate", (p) => expect(p.getByText("This interview link is not valid")).toBeVisible());
});

test("manager screens: companies, team, preferences, review", async ({ page }) => {
  const { manager, company, job, candidate } = await world();
  await signInBrowser(page, manager.pb);
  await audit(page, `/companies/${company.id}/edit`, heading("General"));
  await audit(page, `/companies/${company.id}/team`, heading("Team members"));
  await audit(page, "/companies/new", heading("Create company"));
  await audit(page, "/preferences/profile", (p) => expect(p.getByLabel("First name")).toBeVisible());
  await audit(page, "/preferences/password", (p) => expect(p.getByRole("button", { name: "Update Password" })).toBeVisible());
  await audit(page, "/preferences/email", (p) => expect(p.getByRole("button", { name: "Update Email" })).toBeVisible());
  await audit(page, `/companies/${company.id}/jobs/${job.id}/candidates/${candidate.id}`, (p) => expect(p.getByText(candidate.email)).toBeVisible());
});

test("manager screens: questions and jobs, with their dialogs open", async ({ page }) => {
  const { manager, company, text, job } = await world();
  await signInBrowser(page, manager.pb);
  await audit(page, `/companies/${company.id}/questions`, heading("Questions"));
  await audit(page, `/companies/${company.id}/questions/new`, heading("New question"));
  await page.getByRole("button", { name: "Create Question" }).click();
  await expect(page.getByText("Please enter a question title", { exact: true })).toBeVisible();
  await expectAccessible(page, "new question with errors");
  await audit(page, `/companies/${company.id}/questions/${text.id}/edit`, heading("Edit question"));
  await audit(page, `/companies/${company.id}/jobs`, heading("Jobs"));
  await audit(page, `/companies/${company.id}/jobs/new`, heading("Create job"));
  await page.getByRole("button", { name: "Create Job" }).click();
  await expect(page.getByText("Title is required")).toBeVisible();
  await expectAccessible(page, "create job with errors");
  await page.getByRole("button", { name: "Create new question" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessible(page, "create-new-question dialog");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessible(page, "question picker dialog");
  await page.keyboard.press("Escape");
  await audit(page, `/companies/${company.id}/jobs/${job.id}`, heading("Auditor"));
  await audit(page, `/companies/${company.id}/jobs/${job.id}/edit`, heading("Edit job"));
});

test("the interview is fully usable with the keyboard alone", async ({ page }) => {
  const manager = await createUser();
  const company = await createCompany(manager.pb, "Keyboard Co");
  const text = await createQuestion(manager.pb, company.id, "text", { title: "Tell us", timeout: 120, canPreview: true });
  const job = await manager.pb.collection("jobs").create({ company: company.id, title: "Typist", description: "Types", location: "Home", questions: [text.id] });
  const candidate = await manager.pb.collection("candidates").create({ job: job.id, email: uniqueEmail("keyboard") });

  await page.goto(`/candidates/${await keyOf(candidate.id)}`);
  await expect(page.getByRole("heading", { name: "Interview at Keyboard Co" })).toBeVisible();
  // 'I agree' is ticked with the space bar; only then is 'Start Interview' enabled and reachable
  const agree = page.getByLabel("I agree");
  for (let i = 0; i < 10 && !(await agree.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(agree).toBeFocused();
  await page.keyboard.press("Space");
  await expect(agree).toBeChecked();
  const start = page.getByRole("button", { name: "Start Interview" });
  for (let i = 0; i < 10 && !(await start.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(start).toBeFocused();
  await page.keyboard.press("Enter");

  const view = page.getByRole("button", { name: "View question" });
  await expect(view).toBeVisible();
  for (let i = 0; i < 10 && !(await view.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(view).toBeFocused();
  await page.keyboard.press("Enter");

  const answer = page.getByLabel("Your answer");
  await expect(answer).toBeFocused();
  await page.keyboard.type("Typed with the keyboard only.");
  const submit = page.getByRole("button", { name: "Submit answer" });
  for (let i = 0; i < 10 && !(await submit.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(submit).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Thank you" })).toBeVisible();

  const su = await superuser();
  const answers = await su.collection("answers").getFullList({ filter: su.filter("candidate = {:c}", { c: candidate.id }), expand: "text_answers_via_answer" });
  expect(answers).toHaveLength(1);
});
