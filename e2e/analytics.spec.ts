// The analytics screens in a real browser against the real stack: a company of three jobs whose candidates this test
// moves along through the candidate's own routes (the interview read, one of them by opening their link in the
// browser, consent, a question opened, answers) and the manager's decision route; then the manager reads each
// figure in the tables beside the charts, of a job and of the company, downloads the CSV, and the chart library is
// fetched on the analytics screen only. A screenshot of the company's screen is kept (ANALYTICS_SCREENSHOT, else
// test-results/analytics-screen.png).
import { expect, test, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type PocketBase from "pocketbase";
import { E2E } from "../scripts/lib/e2e-ports.mjs";
import { expectAccessible } from "./a11y";
import { answerWithText } from "./review-support";
import { consentAs, createCompany, createQuestion, createUser, keyOf, signInBrowser, superuser, uniqueEmail } from "./support";

test.describe.configure({ timeout: 300_000 });

const read = (key: string) => fetch(`${E2E.appUrl}/api/screenroom/interviews/${key}`, { headers: { "X-Candidate-Key": key } });
const open = (key: string, question: string) =>
  fetch(`${E2E.appUrl}/api/screenroom/interviews/${key}/questions/${question}/open`, { method: "POST", headers: { "X-Candidate-Key": key } });

/** The rows of the table named `name`, each as the text of its cells. */
async function rowsOf(page: Page, name: string) {
  const table = page.getByRole("table", { name, exact: true });
  await expect(table).toBeVisible();
  return table.locator("tbody tr").evaluateAll((rows) => rows.map((row) => Array.from(row.querySelectorAll("th, td"), (cell) => cell.textContent ?? "")));
}

async function world() {
  const manager = await createUser({ firstName: "Ana", lastName: "Lytics" });
  const company = await createCompany(manager.pb, "Analytics Co");
  const why = await createQuestion(manager.pb, company.id, "text", { title: "Why us?" });
  const project = await createQuestion(manager.pb, company.id, "text", { title: "Your best project" });
  const job = (title: string, questions: string[]) =>
    manager.pb.collection("jobs").create({ company: company.id, title, description: "A job to measure", location: "Remote", questions });
  const support = await job("Support engineer", [why.id, project.id]);
  const designer = await job("Designer", [why.id]);
  const analyst = await job("Data analyst", [project.id, why.id]);
  return { manager, company, why: why.id, project: project.id, support, designer, analyst };
}

async function invite(pb: PocketBase, jobId: string, label: string) {
  const candidate = await pb.collection("candidates").create({ job: jobId, email: uniqueEmail(label) });
  return { id: candidate.id, key: await keyOf(candidate.id) };
}

const decide = (pb: PocketBase, candidate: string, decision: string) =>
  pb.send(`/api/screenroom/candidates/${candidate}/decision`, { method: "POST", body: { decision } });

test("a job's and the company's funnel, as the test moved its candidates, with the chart library on that screen only", async ({ page }) => {
  const w = await world();
  const pb = w.manager.pb;

  // Support engineer: invited only; the link opened (in the browser, below); agreed; stopped at the first question;
  // two completed (advanced and rejected)
  const invited = await invite(pb, w.support.id, "a-invited");
  const linkOnly = await invite(pb, w.support.id, "a-link");
  const agreed = await invite(pb, w.support.id, "a-agreed");
  const stopped = await invite(pb, w.support.id, "a-stopped");
  const done = [await invite(pb, w.support.id, "a-done-1"), await invite(pb, w.support.id, "a-done-2")];
  for (const c of [agreed, stopped, ...done]) {
    expect((await read(c.key)).status).toBe(200);
    await consentAs(c.key);
  }
  expect((await open(stopped.key, w.why)).status).toBe(200);
  for (const c of done) {
    for (const question of [w.why, w.project]) {
      expect((await open(c.key, question)).status).toBe(200);
      await answerWithText(c.key, question, "Because it matters.");
    }
  }
  await decide(pb, done[0]!.id, "advance");
  await decide(pb, done[1]!.id, "reject");
  // Designer: one completed and put on hold, one who only agreed (their link's read is implied by it)
  const designerDone = await invite(pb, w.designer.id, "b-done");
  const designerAgreed = await invite(pb, w.designer.id, "b-agreed");
  await consentAs(designerAgreed.key);
  await answerWithText(designerDone.key, w.why, "Pixels.");
  await decide(pb, designerDone.id, "hold");
  // Data analyst: one answered the first question and opened the second, one invited only
  const analystStarted = await invite(pb, w.analyst.id, "c-started");
  await invite(pb, w.analyst.id, "c-invited");
  await consentAs(analystStarted.key);
  expect((await open(analystStarted.key, w.project)).status).toBe(200);
  await answerWithText(analystStarted.key, w.project, "A dashboard.");
  expect((await open(analystStarted.key, w.why)).status).toBe(200);
  void invited;

  // the candidate opens their link in a browser of their own: the start screen's read is the link's opening
  const candidatePage = await page.context().browser()!.newPage();
  await candidatePage.goto(`/candidates/${linkOnly.key}`);
  await expect(candidatePage.getByRole("heading", { level: 1 })).toBeVisible();
  await candidatePage.close();
  // the server writes the openings a moment after the reads
  const su = await superuser();
  await expect
    .poll(async () => (await Promise.all([linkOnly, agreed, stopped, ...done].map((c) => su.collection("candidates").getOne(c.id)))).every((c) => c.linkOpenedAt !== ""))
    .toBe(true);

  const requested: string[] = [];
  page.on("request", (request) => requested.push(request.url()));
  await signInBrowser(page, pb);

  // the company home: a link to the analytics, and no chart library fetched
  await page.goto(`/companies/${w.company.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Jobs" })).toBeVisible();
  await expect(page.getByRole("row", { name: /Data analyst/ })).toBeVisible();
  expect(requested.filter((url) => url.includes("analytics-charts"))).toEqual([]);

  // the job's own analytics, from the job page
  await page.getByRole("link", { name: "View Support engineer" }).click();
  await page.getByRole("link", { name: "Analytics", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/companies/${w.company.id}/jobs/${w.support.id}/analytics$`));
  await expect(page.getByRole("heading", { level: 1, name: "Analytics: Support engineer" })).toBeVisible();
  expect(await rowsOf(page, "Funnel")).toEqual([
    ["Invited", "6", "—", "—"],
    ["Link opened", "5", "83.3%", "83.3%"],
    ["Agreed", "4", "66.7%", "80%"],
    ["Started", "3", "50%", "75%"],
    ["Completed", "2", "33.3%", "66.7%"],
    ["Decided", "2", "33.3%", "—"],
  ]);
  expect(await rowsOf(page, "Decisions")).toEqual([
    ["Advance", "1"],
    ["Hold", "0"],
    ["Reject", "1"],
  ]);
  expect(await rowsOf(page, "Drop-off per question")).toEqual([
    ["1. Why us?", "3", "2", "1"],
    ["2. Your best project", "2", "2", "0"],
  ]);
  const weeks = await rowsOf(page, "Completion rate by invite week");
  expect(weeks.map((row) => row.slice(1))).toEqual([["6", "2", "33.3%"]]);
  expect(await rowsOf(page, "Reminders")).toEqual([
    ["Reminded", "0", "0", "—"],
    ["Not reminded", "6", "2", "33.3%"],
  ]);
  await expect(page.getByText("Completed after their reminder: 0 of the 0 reminded.")).toBeVisible();
  const times = await rowsOf(page, "Time to complete");
  expect(times.map((row) => [row[0], row[3]])).toEqual([
    ["From the first question opened", "2"],
    ["From the invite", "2"],
  ]);
  // the charts, drawn beside their tables, from the chart library fetched now
  await expect(page.locator("[data-chart] .recharts-wrapper")).toHaveCount(5);
  expect(requested.filter((url) => url.includes("analytics-charts")).length).toBeGreaterThan(0);
  await expectAccessible(page, "job analytics");

  // the CSV: every table, UTF-8 with a byte-order mark
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^analytics-support-engineer-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = readFileSync((await download.path())!);
  expect(Array.from(bytes.subarray(0, 3))).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString("utf8").split("\r\n");
  expect(lines[0]).toBe("Section,Row,Column,Value");
  expect(lines).toEqual(expect.arrayContaining(["Funnel,Started,Candidates,3", "Questions,1. Why us?,Stopped here,1", "Decisions,Reject,Candidates,1"]));

  // the company's, over its three jobs
  await page.getByRole("link", { name: "All jobs" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Analytics: Analytics Co" })).toBeVisible();
  expect((await rowsOf(page, "Funnel")).map((row) => row.slice(0, 2))).toEqual([
    ["Invited", "10"],
    ["Link opened", "8"],
    ["Agreed", "7"],
    ["Started", "5"],
    ["Completed", "3"],
    ["Decided", "3"],
  ]);
  expect(await rowsOf(page, "Drop-off per question")).toEqual([
    ["Why us?", "5", "3", "2"],
    ["Your best project", "3", "3", "0"],
  ]);
  expect(await rowsOf(page, "Each job, most invited first")).toEqual([
    ["Support engineer", "6", "3", "2", "2", "33.3%"],
    ["Data analyst", "2", "1", "0", "0", "0%"],
    ["Designer", "2", "1", "1", "1", "50%"],
  ]);
  await expect(page.locator("[data-chart] .recharts-wrapper")).toHaveCount(5);
  await expectAccessible(page, "company analytics");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: process.env.ANALYTICS_SCREENSHOT ?? join("test-results", "analytics-screen.png"), fullPage: true });

  // a job of the list opens its own figures
  await page.getByRole("link", { name: "Data analyst" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Analytics: Data analyst" })).toBeVisible();
  expect(await rowsOf(page, "Drop-off per question")).toEqual([
    ["1. Your best project", "1", "1", "0"],
    ["2. Why us?", "1", "0", "1"],
  ]);
});
