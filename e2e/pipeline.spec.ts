// Issue 15 point 1: the candidate pipeline on the job detail, as a manager sees it in a real browser against the
// real stack. 35 candidates of one job, made through the API as the app makes them: answers through the answers
// route with each candidate's key (completed, started, invited), ratings through the records API by two managers,
// decisions through the decision route by both managers. Then the manager sorts, filters, searches and pages.
import { expect, test, type Locator, type Page } from "@playwright/test";
import type PocketBase from "pocketbase";
import { E2E } from "../scripts/lib/e2e-ports.mjs";
import { expectAccessible } from "./a11y";
import { answerWithText } from "./review-support";
import { createCompany, createQuestion, createUser, keyOf, signInBrowser } from "./support";

test.describe.configure({ timeout: 300_000 });

const CANDIDATES = 35;
/** n = 1..35 in the order they were invited; their e-mails sort the same way. */
const two = (n: number) => String(n).padStart(2, "0");
/** 1-10 answered all three questions, 11-18 one or two of them, 19-35 none. */
const answersOf = (n: number) => (n <= 10 ? 3 : n <= 18 ? (n % 2 === 0 ? 2 : 1) : 0);

async function decide(pb: PocketBase, candidateId: string, decision: string) {
  await pb.send(`/api/screenroom/candidates/${encodeURIComponent(candidateId)}/decision`, { method: "POST", body: { decision } });
}

/** A company of two managers (the second joined through a real invite), a job of three text questions, 35 candidates. */
async function pipelineWorld() {
  // digits only, so the e-mail searches below ("p2", "p07-") match the number part alone
  const run = String(Date.now());
  const maria = await createUser({ firstName: "Maria", lastName: "Manager" });
  const bruno = await createUser({ firstName: "Bruno", lastName: "Boss" });
  const company = await createCompany(maria.pb, "Pipeline Co");
  const invite = await maria.pb.collection("manager_invites").create({ company: company.id, email: bruno.email });
  const accepted = await fetch(`${E2E.appUrl}/api/screenroom/invites/${invite.id}/accept`, {
    method: "POST",
    headers: { Authorization: bruno.pb.authStore.token },
  });
  expect(accepted.status, "the co-manager joins through the invite").toBe(200);

  const questions = [];
  for (const title of ["Why us?", "Your last project", "Anything else?"]) questions.push(await createQuestion(maria.pb, company.id, "text", { title }));
  const job = await maria.pb.collection("jobs").create({
    company: company.id,
    title: "Pipeline engineer",
    description: "Keeps things flowing",
    location: "Remote",
    questions: questions.map((q) => q.id),
  });

  // invited one after another, so "Invited on" has one order
  const candidates: { n: number; id: string; email: string }[] = [];
  for (let n = 1; n <= CANDIDATES; n++) {
    const email = `p${two(n)}-${run}@pipeline.test`;
    const record = await maria.pb.collection("candidates").create({ job: job.id, email });
    candidates.push({ n, id: record.id, email });
  }
  const byN = (n: number) => candidates[n - 1]!;

  // answers through the answers route, as the candidate's browser sends them
  const answers = new Map<number, string[]>();
  for (const c of candidates) {
    const count = answersOf(c.n);
    if (!count) continue;
    const key = await keyOf(c.id);
    const ids: string[] = [];
    for (const question of questions.slice(0, count)) ids.push((await answerWithText(key, question.id, `Answer of candidate ${c.n}`)).id);
    answers.set(c.n, ids);
  }

  // ratings: 1 → 5.0 (three answers), 2 → 3.0, 3 → 4.5 (Maria 4 and Bruno 5 on one answer)
  const rate = (pb: PocketBase, userId: string, n: number, answer: string, stars: number) =>
    pb.collection("ratings").create({ answer, candidate: byN(n).id, manager: userId, stars });
  for (const answer of answers.get(1)!) await rate(maria.pb, maria.user.id, 1, answer, 5);
  await rate(maria.pb, maria.user.id, 2, answers.get(2)![0]!, 3);
  await rate(maria.pb, maria.user.id, 3, answers.get(3)![0]!, 4);
  await rate(bruno.pb, bruno.user.id, 3, answers.get(3)![0]!, 5);

  // decisions: advance 1, 2 (Maria) and 3 (Bruno), hold 4 and 11, reject 5
  await decide(maria.pb, byN(1).id, "advance");
  await decide(maria.pb, byN(2).id, "advance");
  await decide(bruno.pb, byN(3).id, "advance");
  await decide(maria.pb, byN(4).id, "hold");
  await decide(bruno.pb, byN(11).id, "hold");
  await decide(maria.pb, byN(5).id, "reject");

  return { maria, bruno, company, job, candidates, byN };
}

const candidatesTable = (page: Page) => page.getByRole("table", { name: "Candidates" });
const emailsShown = (page: Page) => candidatesTable(page).getByRole("rowheader");
/** The page's search params, e.g. "?sort=email&dir=asc" ("" for the default view). */
const searchOf = (page: Page) => new URL(page.url()).search;
const rowOf = (page: Page, email: string) => candidatesTable(page).getByRole("row").filter({ has: page.getByRole("link", { name: email, exact: true }) });

/** The width of an element's box: the decision's detail is a 1-pixel clip until hover or focus shows it. */
async function widthOf(locator: Locator) {
  return (await locator.boundingBox())?.width ?? 0;
}

test("a manager sorts, filters, searches and pages the pipeline of a job with 35 candidates", async ({ page }) => {
  const world = await pipelineWorld();
  const emails = (...ns: number[]) => ns.map((n) => world.byN(n).email);
  const range = (from: number, to: number) => Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => (from <= to ? from + i : from - i));

  await signInBrowser(page, world.maria.pb);
  const jobUrl = `/companies/${world.company.id}/jobs/${world.job.id}`;
  await page.goto(jobUrl);
  await expect(page.getByRole("heading", { level: 1, name: "Pipeline engineer" })).toBeVisible();

  // the counts per status, from the server
  await expect(page.getByText("17 invited · 8 started · 10 completed")).toBeVisible();

  // the default order: newest invite first, 30 a page
  await expect(emailsShown(page)).toHaveText(emails(...range(35, 6)));
  await expect(page.getByText("Page 1 of 2")).toBeVisible();
  await expect(candidatesTable(page).getByRole("columnheader", { name: "Invited on" })).toHaveAttribute("aria-sort", "descending");

  // each row's status, rating and decision (the first cell is the row's selection box, e2e/bulk-actions.spec.ts)
  await expect(rowOf(page, world.byN(35).email).getByRole("cell").nth(2)).toHaveText("Invited");
  await expect(rowOf(page, world.byN(12).email).getByRole("cell").nth(2)).toHaveText("Started 2 of 3");
  await expect(rowOf(page, world.byN(13).email).getByRole("cell").nth(2)).toHaveText("Started 1 of 3");
  await expect(rowOf(page, world.byN(11).email).getByRole("cell").nth(4)).toContainText("Hold by Bruno Boss on");
  await expectAccessible(page, "the candidate pipeline");

  // the next page, and its rows' places in the whole order
  await page.getByRole("button", { name: "Next" }).click();
  await expect(emailsShown(page)).toHaveText(emails(5, 4, 3, 2, 1));
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  await expect.poll(() => searchOf(page)).toBe("?page=2");
  await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();
  await expect(page.getByRole("link", { name: world.byN(5).email })).toHaveAttribute("href", `${jobUrl}/candidates/${world.byN(5).id}?page=2&i=30`);

  const first = rowOf(page, world.byN(1).email);
  await expect(first.getByRole("cell").nth(2)).toContainText("Completed");
  await expect(first.getByRole("cell").nth(3)).toContainText("5.0 ★");
  await expect(first.getByText("5.0 ★")).toHaveAttribute("title", "5.0 out of 5 from 3 ratings");
  await expect(rowOf(page, world.byN(3).email).getByText("4.5 ★")).toHaveAttribute("title", "4.5 out of 5 from 2 ratings");
  await expect(rowOf(page, world.byN(4).email).getByRole("cell").nth(3)).toHaveText(/—/);

  // who decided and when: on hover, and on keyboard focus
  const byBruno = rowOf(page, world.byN(3).email).locator(".pipeline-decision-detail");
  await expect(byBruno).toHaveText(/^\s*by Bruno Boss on \w{3} \d{1,2}, \d{4}/);
  expect(await widthOf(byBruno)).toBeLessThanOrEqual(1);
  await rowOf(page, world.byN(3).email).getByText("Advance", { exact: true }).hover();
  await expect.poll(() => widthOf(byBruno)).toBeGreaterThan(50);
  const byMaria = rowOf(page, world.byN(5).email).locator(".pipeline-decision-detail");
  await expect(byMaria).toHaveText(/^\s*by Maria Manager on /);
  await page.mouse.move(0, 0);
  await expect.poll(() => widthOf(byBruno)).toBeLessThanOrEqual(1);
  expect(await widthOf(byMaria)).toBeLessThanOrEqual(1);
  await rowOf(page, world.byN(5).email).locator(".pipeline-decision").focus();
  await expect.poll(() => widthOf(byMaria)).toBeGreaterThan(50);

  // sort by e-mail, then the other way
  await page.getByRole("button", { name: "Email" }).click();
  await expect(emailsShown(page)).toHaveText(emails(...range(1, 30)));
  await expect(candidatesTable(page).getByRole("columnheader", { name: "Email" })).toHaveAttribute("aria-sort", "ascending");
  await expect.poll(() => searchOf(page)).toBe("?sort=email&dir=asc");
  await page.getByRole("button", { name: "Email" }).click();
  await expect(emailsShown(page)).toHaveText(emails(...range(35, 6)));
  await expect(candidatesTable(page).getByRole("columnheader", { name: "Email" })).toHaveAttribute("aria-sort", "descending");

  // by rating: best first
  await page.getByRole("button", { name: "Rating" }).click();
  await expect(emailsShown(page).first()).toHaveText(world.byN(1).email);
  await expect(emailsShown(page).nth(1)).toHaveText(world.byN(3).email);
  await expect(emailsShown(page).nth(2)).toHaveText(world.byN(2).email);

  // by status: furthest first (completed, then two answers, then one)
  await page.getByRole("button", { name: "Status" }).click();
  await expect(candidatesTable(page).getByRole("columnheader", { name: "Status" })).toHaveAttribute("aria-sort", "descending");
  await expect(candidatesTable(page).getByRole("row").locator("td:nth-of-type(3)")).toHaveText([
    ...Array<RegExp>(10).fill(/^Completed\w{3} \d{1,2}, \d{4}$/),
    ...Array<string>(4).fill("Started 2 of 3"),
    ...Array<string>(4).fill("Started 1 of 3"),
    ...Array<string>(12).fill("Invited"),
  ]);

  // filter: completed, sorted by invite (newest first)
  await page.getByRole("button", { name: "Invited on" }).click();
  await page.getByLabel("Status").selectOption({ label: "Completed" });
  await expect(emailsShown(page)).toHaveText(emails(...range(10, 1)));
  await expect(page.getByRole("navigation", { name: "Candidate pages" })).toHaveCount(0);
  // and advanced
  await page.getByLabel("Decision").selectOption({ label: "Advance" });
  await expect(emailsShown(page)).toHaveText(emails(3, 2, 1));
  await expect.poll(() => searchOf(page)).toBe("?status=completed&decision=advance");
  // completed without a decision
  await page.getByLabel("Decision").selectOption({ label: "No decision" });
  await expect(emailsShown(page)).toHaveText(emails(10, 9, 8, 7, 6));
  // held, any status
  await page.getByLabel("Status").selectOption({ label: "All" });
  await page.getByLabel("Decision").selectOption({ label: "Hold" });
  await expect(emailsShown(page)).toHaveText(emails(11, 4));

  // search by e-mail, with the filters on, then alone
  await page.getByLabel("Decision").selectOption({ label: "All" });
  await page.getByLabel("Search by e-mail").fill(`p2`);
  await expect(emailsShown(page)).toHaveText(emails(...range(29, 20)));
  await page.getByLabel("Status").selectOption({ label: "Started" });
  await expect(page.getByText("No candidates match")).toBeVisible();
  await page.getByLabel("Status").selectOption({ label: "All" });
  await page.getByLabel("Search by e-mail").fill(`p07-`);
  await expect(emailsShown(page)).toHaveText(emails(7));
  await expect.poll(() => searchOf(page)).toBe("?q=p07-");

  // the state survives a reload, and the review link carries it with the row's place
  await page.getByLabel("Search by e-mail").fill("");
  await page.getByRole("button", { name: "Email" }).click();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(emailsShown(page)).toHaveText(emails(...range(31, 35)));
  await page.reload();
  await expect(emailsShown(page)).toHaveText(emails(...range(31, 35)));
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  await page.getByRole("link", { name: world.byN(32).email }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe(`${jobUrl}/candidates/${world.byN(32).id}`);
  expect(searchOf(page)).toBe("?sort=email&dir=asc&page=2&i=31");
  await expect(page.getByRole("heading", { level: 1, name: world.byN(32).email })).toBeVisible();
});
