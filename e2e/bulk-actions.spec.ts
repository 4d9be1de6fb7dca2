// The pipeline's bulk actions in real Chromium against the real stack (server/internal/bulk, the job page's
// selection and bulk bar): a manager picks rows, or all that match the filter, and decides, sends a decision
// message, resends the invitation, exports one zip and erases, each confirmed, then summarised with who was left and
// why; and opens two picked candidates side by side. One job of 35 candidates is made once through the API (one
// of them has answered), and the actions run in order on it, each checked on screen and on the server.
import { expect, test, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { E2E } from "../scripts/lib/e2e-ports.mjs";
import { mailsTo } from "../scripts/lib/maildev.mjs";
import { readZip } from "../tests/zip-reader";
import { expectAccessible } from "./a11y";
import { answerWithText } from "./review-support";
import { createCompany, createQuestion, createUser, keyOf, signInBrowser, superuser, waitForMail } from "./support";

test.describe.configure({ mode: "serial", timeout: 300_000 });

const CANDIDATES = 35;
const two = (n: number) => String(n).padStart(2, "0");

interface World {
  manager: Awaited<ReturnType<typeof createUser>>;
  companyId: string;
  jobId: string;
  /** n = 1..35 in the order invited; their e-mails sort the same way */
  candidates: { n: number; id: string; email: string }[];
}
let world: World;
const byN = (n: number) => world.candidates[n - 1]!;

test.beforeAll(async () => {
  const run = String(Date.now());
  const manager = await createUser({ firstName: "Bea", lastName: "Bulk" });
  const company = await createCompany(manager.pb, "Bulk Co");
  const question = await createQuestion(manager.pb, company.id, "text", { title: "Why us?" });
  const job = await manager.pb.collection("jobs").create({
    company: company.id,
    title: "Bulk engineer",
    description: "Handles many at once",
    location: "Remote",
    questions: [question.id],
  });
  const candidates: World["candidates"] = [];
  for (let n = 1; n <= CANDIDATES; n++) {
    const email = `b${two(n)}-${run}@bulk.test`;
    candidates.push({ n, id: (await manager.pb.collection("candidates").create({ job: job.id, email })).id, email });
  }
  // candidate 1 has answered the job's one question: completed
  await answerWithText(await keyOf(candidates[0]!.id), question.id, "Because it is a good place.");
  world = { manager, companyId: company.id, jobId: job.id, candidates };
});

const stored = async (id: string) =>
  (await superuser())
    .collection("candidates")
    .getOne(id)
    .catch(() => null);

async function openPipeline(page: Page, search = "") {
  await signInBrowser(page, world.manager.pb);
  await page.goto(`/companies/${world.companyId}/jobs/${world.jobId}?sort=email&dir=asc${search}`);
  // the job page's first visit loads its chunks: on a machine busy with other suites that outlasted 20 s
  await expect(page.getByRole("table", { name: "Candidates" })).toBeVisible({ timeout: 60_000 });
}

const pick = (page: Page, n: number) => page.getByRole("checkbox", { name: `Select ${byN(n).email}` }).check();
const bar = (page: Page) => page.getByRole("region", { name: "Selected candidates" });

/** Confirms the open dialog's action and waits for its summary; the dialog. */
async function confirm(page: Page, title: string, button: string) {
  const dialog = page.getByRole("dialog", { name: title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: button, exact: true }).click();
  // the server acts on each candidate in turn (35 erasures, decisions, e-mails): a bound above a busy machine's run
  await expect(page.getByRole("dialog", { name: "Bulk action finished" })).toBeVisible({ timeout: 60_000 });
  return page.getByRole("dialog", { name: "Bulk action finished" });
}

test("decides all 35 that match the filter in one action, with a summary", async ({ page }) => {
  await openPipeline(page);
  await page.getByRole("checkbox", { name: "Select every candidate on this page" }).check();
  await expect(bar(page).getByRole("status")).toHaveText("30 selected");
  await page.getByRole("button", { name: "Select all 35 that match" }).click();
  await expect(bar(page).getByRole("status")).toHaveText("All 35 matching selected");
  await expectAccessible(page, "the pipeline with all matching selected");

  await bar(page).getByRole("button", { name: "Decide" }).click();
  await page.getByRole("menuitem", { name: "Hold" }).click();
  const summary = await confirm(page, "Hold all 35 candidates that match the filter?", "Hold");
  await expect(summary.getByRole("status")).toHaveText("Decided 35 candidates.");
  await expect(summary).toContainText(/You can act on [\d,]+ more candidates this hour/);
  await expectAccessible(page, "the bulk action's summary", '[role="dialog"]');
  await summary.getByRole("button", { name: "Close" }).click();

  // the selection is done with; the table shows the decision, and the server holds it with who set it
  await expect(bar(page)).toHaveCount(0);
  await expect(page.getByRole("row", { name: new RegExp(byN(30).email) })).toContainText("Hold");
  for (const n of [1, 17, 35]) expect(await stored(byN(n).id)).toMatchObject({ decision: "hold", decisionBy: world.manager.user.id });
});

test("advances picked rows, then sends the advance message to those advanced, telling who was left out and why", async ({ page }) => {
  await openPipeline(page);
  for (const n of [2, 3, 4]) await pick(page, n);
  await expect(bar(page).getByRole("status")).toHaveText("3 selected");
  await bar(page).getByRole("button", { name: "Decide" }).click();
  await page.getByRole("menuitem", { name: "Advance" }).click();
  let summary = await confirm(page, "Advance 3 candidates?", "Advance");
  await expect(summary.getByRole("status")).toHaveText("Decided 3 candidates.");
  await summary.getByRole("button", { name: "Close" }).click();
  await expect(page.getByRole("row", { name: new RegExp(byN(3).email) })).toContainText("Advance");

  // 2-4 advanced, 5 on hold
  for (const n of [2, 3, 4, 5]) await pick(page, n);
  await bar(page).getByRole("button", { name: "Send decision message" }).click();
  await page.getByRole("menuitem", { name: "Advance message" }).click();
  summary = await confirm(page, "Send the advance message to 4 candidates?", "Send messages");
  await expect(summary.getByRole("status")).toHaveText("Sent the advance message to 3 candidates. 1 candidate was left as they were:");
  await expect(summary.getByRole("row", { name: new RegExp(byN(5).email) })).toContainText("Not advanced: advance first to send this message.");
  await summary.getByRole("button", { name: "Close" }).click();

  const su = await superuser();
  const sent = await su.collection("decision_messages").getFullList({ filter: su.filter("candidate.job = {:j}", { j: world.jobId }), sort: "sentAt" });
  expect(sent.map((m) => m.candidate).sort()).toEqual([byN(2).id, byN(3).id, byN(4).id].sort());
  const subject = sent[0]!.subject as string;
  const mail = await waitForMail(world.candidates.find((c) => c.id === sent[0]!.candidate)!.email, new RegExp(subject.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  expect(mail.subject).toBe(subject);
});

test("resends the invitation to picked rows, leaving out who has already answered", async ({ page }) => {
  await openPipeline(page);
  for (const n of [1, 6, 7]) await pick(page, n);
  await bar(page).getByRole("button", { name: "Resend invitation" }).click();
  const summary = await confirm(page, "Send the invitation again to 3 candidates?", "Send again");
  await expect(summary.getByRole("status")).toHaveText("Sent 2 invitations again. 1 candidate was left as they were:");
  await expect(summary.getByRole("row", { name: new RegExp(byN(1).email) })).toContainText(
    "Has already sent their answers: there is no invitation to resend.",
  );
  await summary.getByRole("button", { name: "Close" }).click();
  // the invitation again: a second e-mail to the address, saying so
  await expect.poll(async () => (await mailsTo(E2E.mailUrl, byN(6).email)).map((m) => m.html.includes("A reminder of your invitation")), { timeout: 30_000 }).toEqual([false, true]);
});

test("exports picked rows as one zip with a folder each, written to the audit log", async ({ page }) => {
  await openPipeline(page);
  for (const n of [1, 8]) await pick(page, n);
  await bar(page).getByRole("button", { name: "Export" }).click();
  const dialog = page.getByRole("dialog", { name: "Export 2 candidates?" });
  const downloading = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Download zip" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`candidates-${world.jobId}.zip`);
  const summary = page.getByRole("dialog", { name: "Bulk action finished" });
  await expect(summary.getByRole("status")).toHaveText(`Exported 2 candidates. The zip is candidates-${world.jobId}.zip, in your downloads.`);

  const zip = readZip(readFileSync(await download.path()));
  const index = JSON.parse(zip.get("candidates.json")!.toString()) as { id: string; folder: string }[];
  expect(index.map((c) => c.id)).toEqual([byN(1).id, byN(8).id]);
  expect(JSON.stringify(JSON.parse(zip.get(`${index[0]!.folder}answers.json`)!.toString()))).toContain("Because it is a good place.");
  const su = await superuser();
  for (const n of [1, 8]) {
    const audit = await su.collection("audit_log").getFullList({ filter: su.filter("candidateId = {:c}", { c: byN(n).id }) });
    expect(audit.map((e) => e.action)).toEqual(["export"]);
  }
  await summary.getByRole("button", { name: "Close" }).click();
});

test("erases picked rows after a confirmation that says what goes; the pipeline no longer lists them", async ({ page }) => {
  await openPipeline(page);
  for (const n of [9, 10]) await pick(page, n);
  await bar(page).getByRole("button", { name: "Erase" }).click();
  const dialog = page.getByRole("dialog", { name: "Erase 2 candidates?" });
  await expect(dialog).toContainText("This removes everything and cannot be undone.");
  await expectAccessible(page, "the erase confirmation", '[role="dialog"]');
  const summary = await confirm(page, "Erase 2 candidates?", "Erase 2 candidates");
  await expect(summary.getByRole("status")).toHaveText("Erased 2 candidates.");
  await summary.getByRole("button", { name: "Close" }).click();

  await expect(page.getByRole("row", { name: new RegExp(byN(9).email) })).toHaveCount(0);
  await expect(page.getByRole("row", { name: new RegExp(byN(10).email) })).toHaveCount(0);
  await expect(page.getByRole("row", { name: new RegExp(byN(11).email) })).toHaveCount(1);
  const su = await superuser();
  for (const n of [9, 10]) {
    expect(await stored(byN(n).id)).toBeNull();
    const audit = await su.collection("audit_log").getFullList({ filter: su.filter("candidateId = {:c}", { c: byN(n).id }) });
    expect(audit.map((e) => [e.action, e.actor])).toEqual([["erase", world.manager.user.id]]);
  }
});

test("opens two picked candidates side by side with Compare, offered for two to four only", async ({ page }) => {
  await openPipeline(page, "&q=b1");
  await pick(page, 12);
  await expect(bar(page).getByRole("button", { name: "Compare" })).toBeDisabled();
  await pick(page, 13);
  await bar(page).getByRole("link", { name: "Compare" }).click();
  await expect(page).toHaveURL(new RegExp(`/companies/${world.companyId}/jobs/${world.jobId}/compare\\?candidates=${byN(12).id},${byN(13).id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});
