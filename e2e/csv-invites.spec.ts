// Issue 18 point 1 in a real browser against the real stack: a manager uploads a CSV with mistakes, fixes nothing,
// sends, and reads the summary (and downloads it); the good rows become candidates and get their e-mail (queued,
// sent by the server's mail queue).
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { expectAccessible } from "./a11y";
import { createCompany, createQuestion, createUser, signInBrowser, waitForMail } from "./support";

test("a manager invites from a CSV with mistakes and reads the summary", async ({ page }) => {
  const maria = await createUser({ firstName: "Maria" });
  const company = await createCompany(maria.pb, "CSV Co");
  const question = await createQuestion(maria.pb, company.id, "text", { title: "Why us?" });
  const job = await maria.pb.collection("jobs").create({
    company: company.id,
    title: "Bulk hire",
    description: "Many at once",
    location: "Remote",
    questions: [question.id],
  });
  const run = Date.now().toString(36);
  const email = (name: string) => `${name}-${run}@csv.test`;
  await maria.pb.collection("candidates").create({ job: job.id, email: email("known") });

  const csv = [
    "Email,First name,Last name,Deadline",
    `${email("ada")},Ada,Lovelace,2099-12-31`,
    "not an address,Bad,Row,",
    `${email("grace")},Zoë,Hopper,`,
    `${email("ADA")},Ada,Again,`,
    `${email("known")},Known,Already,`,
    `${email("late")},Late,Comer,2001-01-01`,
    `${email("alan")},Alan,Turing,`,
  ].join("\n");

  await signInBrowser(page, maria.pb);
  await page.goto(`/companies/${company.id}/jobs/${job.id}`);
  await page.getByRole("button", { name: "Invite from CSV" }).click();
  const dialog = page.getByRole("dialog", { name: "Invite from CSV" });
  await dialog.getByLabel("Choose a CSV file").setInputFiles({ name: "candidates.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });

  // the preview: every row, each problem on its row, nothing sent yet
  const preview = dialog.getByRole("table", { name: "Rows of the file" });
  await expect(dialog.getByText("3 rows ready to invite, 4 with problems")).toBeVisible();
  const rowOf = (line: number) => preview.locator(`tr[data-line="${line}"]`);
  await expect(rowOf(3)).toContainText("Not a valid e-mail address");
  await expect(rowOf(5)).toContainText("Duplicate of row 2");
  await expect(rowOf(6)).toContainText("Already invited to this job");
  await expect(rowOf(7)).toContainText("The deadline must be in the future");
  for (const line of [2, 4, 8]) await expect(rowOf(line)).toContainText("OK");
  await expectAccessible(page, "CSV invite preview");

  // fix nothing, send
  await dialog.getByRole("button", { name: "Send 3 invites" }).click();
  const summary = dialog.getByRole("group", { name: "Summary" });
  await expect(summary).toContainText("Sent: 3");
  await expect(summary).toContainText("Skipped: 4");
  await expect(summary).toContainText("Failed: 0");
  const notSent = dialog.getByRole("table", { name: "Rows not sent" });
  await expect(notSent.getByRole("row")).toHaveCount(5); // the header and the 4 skipped rows
  await expect(notSent).toContainText("Already invited to this job");

  // the summary as a CSV file
  const downloading = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Download summary (CSV)" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("invites-summary-candidates.csv");
  // UTF-8 with a byte-order mark first, so Excel on Windows shows "Zoë", not "ZoÃ«"
  const bytes = readFileSync((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString("utf8").trim().split("\r\n");
  expect(lines[0]).toBe("Row,Email,First name,Last name,Result,Reason");
  expect(lines.slice(1)).toEqual([
    `2,${email("ada")},Ada,Lovelace,Sent,`,
    "3,not an address,Bad,Row,Skipped,Not a valid e-mail address",
    `4,${email("grace")},Zoë,Hopper,Sent,`,
    `5,${email("ADA")},Ada,Again,Skipped,Duplicate of row 2`,
    `6,${email("known")},Known,Already,Skipped,Already invited to this job`,
    `7,${email("late")},Late,Comer,Skipped,The deadline must be in the future`,
    `8,${email("alan")},Alan,Turing,Sent,`,
  ]);

  // the new candidates in the pipeline, their e-mails delivered by the queue
  await dialog.getByRole("button", { name: "Close" }).click();
  for (const name of ["ada", "grace", "alan"]) await expect(page.getByRole("link", { name: email(name) })).toBeVisible();
  const mail = await waitForMail(email("grace"), /Your interview for Bulk hire at CSV Co/);
  expect(mail.html).toContain("Hello Zoë,");
});
