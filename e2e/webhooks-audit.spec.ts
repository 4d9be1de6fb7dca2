// Webhooks and the audit log in a real browser against the real stack (its server allows a receiver on 127.0.0.1 and
// runs the test clock). A company's owner adds an endpoint, sends a test event (checked signed by a receiver here,
// with the secret the page showed), rotates the secret (the next delivery carries both signatures), sees a
// redirect fail at once with where it pointed, and an endpoint that fails for longer than the server allows
// disabled, with the e-mail it sends. Then the audit log: filtered by who, action and days, and downloaded as CSV
// with a byte-order mark.
import { expect, test, type Page } from "@playwright/test";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type PocketBase from "pocketbase";
import { E2E } from "../scripts/lib/e2e-ports.mjs";
import { expectAccessible } from "./a11y";
import { createCompany, createQuestion, createUser, keyOf, superuser, signInBrowser, uniqueEmail, waitForMail } from "./support";

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1: /ok answers 200, /moved a redirect, /down 500; every request is kept. */
async function startReceiver() {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      if (req.url === "/moved") res.writeHead(301, { Location: "https://example.com/new-hook" });
      else res.writeHead(req.url === "/down" ? 500 : 200);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return { received, url, stop: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

/** The Standard Webhooks signature of a request by `secret`, computed here from the definition. */
function signatureBy(secret: string, request: Received) {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const mac = createHmac("sha256", key).update(`${request.headers["webhook-id"]}.${request.headers["webhook-timestamp"]}.${request.body}`);
  return `v1,${mac.digest("base64")}`;
}
const signaturesOf = (request: Received) => String(request.headers["webhook-signature"]).split(" ");

async function setClock(offsetMs: number) {
  const su = await superuser();
  await su.send("/api/screenroom/test-clock", { method: "POST", body: { offsetMs } });
}

/** The secret the page shows once, then dismissed as saved. */
async function takeSecret(page: Page) {
  const region = page.getByRole("region", { name: "Signing secret" });
  const secret = (await region.getByTestId("webhook-secret").textContent())!.trim();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
  await region.getByRole("button", { name: "I have saved it" }).click();
  await expect(region).toBeHidden();
  return secret;
}

async function aCompany(label: string) {
  const owner = await createUser({ firstName: "Olivia", lastName: "Owner" });
  const company = await createCompany(owner.pb, `${label} ${Date.now().toString(36)}`);
  const question = await createQuestion(owner.pb, company.id, "text", { title: "Why us?" });
  const job = await owner.pb.collection("jobs").create({ company: company.id, title: "Support engineer", description: "Help", location: "Remote", questions: [question.id] });
  return { owner, company, job };
}

const invite = (pb: PocketBase, job: string, label: string) => pb.collection("candidates").create({ job, email: uniqueEmail(label) });

test("webhooks: a test event, a rotated secret, a redirect and an endpoint disabled for failing", async ({ page }) => {
  const receiver = await startReceiver();
  try {
    const { owner, company, job } = await aCompany("Hooks");
    await signInBrowser(page, owner.pb);
    await page.goto(`/companies/${company.id}/webhooks`);

    // add an endpoint; its secret is shown once
    const form = page.getByRole("form", { name: "Add an endpoint" });
    await form.getByLabel("Endpoint URL").fill(receiver.url("/ok"));
    await form.getByRole("button", { name: "Add endpoint" }).click();
    const first = await takeSecret(page);
    const ok = page.getByRole("region", { name: `Endpoint ${receiver.url("/ok")}` });

    // a test event: signed with that secret, its result on the page and in the delivery log, with no 'Send again'
    await ok.getByRole("button", { name: "Send a test event" }).click();
    await expect(ok.getByText(/^Test event delivered: HTTP 200 in \d+ ms\.$/)).toBeVisible();
    const tested = receiver.received.filter((r) => r.path === "/ok");
    expect(tested).toHaveLength(1);
    expect(JSON.parse(tested[0]!.body)).toMatchObject({ type: "webhook.test", data: { company: { id: company.id } } });
    expect(signaturesOf(tested[0]!)).toEqual([signatureBy(first, tested[0]!)]);
    const testRow = ok.getByRole("row").filter({ hasText: "webhook.test" });
    await expect(testRow).toContainText("succeeded");
    await expect(testRow.getByRole("button")).toHaveCount(0);
    await expectAccessible(page, "webhook settings");

    // rotate: the dialog says how deliveries are signed meanwhile; the new secret is shown once; the next delivery
    // carries the new secret's signature and the old one's
    await ok.getByRole("button", { name: "Rotate secret" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Rotate the signing secret?" });
    await expect(dialog).toContainText("retries and 'Send again' of earlier events included");
    await expect(dialog).toContainText("each delivery also carries a second signature made with the current secret");
    await dialog.getByRole("button", { name: "Rotate secret" }).click();
    await expect(page.getByRole("region", { name: "Signing secret" })).toContainText("every delivery also carries a signature made with the old secret");
    const second = await takeSecret(page);
    expect(second).not.toBe(first);
    await expect(ok.getByText(/Deliveries also carry a signature made with the previous secret until/)).toBeVisible();
    await ok.getByRole("button", { name: "Send a test event" }).click();
    await expect.poll(() => receiver.received.filter((r) => r.path === "/ok").length).toBe(2);
    const afterRotation = receiver.received.filter((r) => r.path === "/ok")[1]!;
    expect(signaturesOf(afterRotation)).toEqual([signatureBy(second, afterRotation), signatureBy(first, afterRotation)]);

    // a redirect: the test fails at once and says where it pointed; an event's delivery too, after one attempt
    await form.getByLabel("Endpoint URL").fill(receiver.url("/moved"));
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await takeSecret(page);
    const moved = page.getByRole("region", { name: `Endpoint ${receiver.url("/moved")}` });
    await moved.getByRole("button", { name: "Send a test event" }).click();
    await expect(moved.getByText("Test event failed: The endpoint answered 301, a redirect to https://example.com/new-hook. Redirects are not followed, so this delivery is not retried: set the endpoint's URL to the address it redirects to.")).toBeVisible();
    await invite(owner.pb, job.id, "redirected");
    const redirected = moved.getByRole("row").filter({ hasText: "candidate.invited" });
    await expect(redirected).toContainText("failed");
    await expect(redirected).toContainText("a redirect to https://example.com/new-hook");
    await expect(redirected.getByRole("cell").nth(4)).toHaveText("1");

    // an endpoint that keeps failing: first 'Failing since', then, once it has failed for longer than the server
    // allows (moved on by the test clock), disabled by its next failure, and the owner is told
    const down = await owner.pb.collection("webhook_endpoints").create({ company: company.id, url: receiver.url("/down"), events: ["candidate.invited"] });
    await invite(owner.pb, job.id, "failing-first");
    await expect.poll(async () => (await owner.pb.collection("webhook_endpoints").getOne(down.id)).failingSince).not.toBe("");
    await page.reload();
    const downRegion = page.getByRole("region", { name: `Endpoint ${receiver.url("/down")}` });
    await expect(downRegion.getByText(/^Failing since/)).toBeVisible();
    await setClock(121 * 3_600_000);
    await invite(owner.pb, job.id, "failing-later");
    await expect.poll(async () => (await owner.pb.collection("webhook_endpoints").getOne(down.id)).enabled).toBe(false);
    await page.reload();
    await expect(downRegion.getByText("Disabled", { exact: true })).toBeVisible();
    await expect(downRegion.getByText(/^Screenroom disabled this endpoint on/)).toContainText("Last error: The endpoint answered 500.");
    const mail = await waitForMail(owner.email, new RegExp(`^Webhook endpoint disabled: ${receiver.url("/down").replace(/[.:/]/g, "\\$&")}$`));
    expect(mail.html).toContain("every delivery to it has failed since");
    expect(mail.html).toContain(`${E2E.appUrl}/companies/${company.id}/webhooks`);

    // enabled again by the owner: a fresh start
    await downRegion.getByRole("button", { name: "Enable" }).click();
    await expect(downRegion.getByText("Enabled", { exact: true })).toBeVisible();
    await expect(downRegion.getByText(/^Screenroom disabled this endpoint/)).toBeHidden();
  } finally {
    await setClock(0);
    await receiver.stop();
  }
});

test("the audit log: filtered by who, action and days, and downloaded as CSV with a byte-order mark", async ({ page }) => {
  const { owner, company, job } = await aCompany("Audit");
  const fellow = await createUser({ firstName: "Zoë", lastName: "Fellow" });
  const invitation = await owner.pb.collection("manager_invites").create({ company: company.id, email: fellow.email });
  const accepted = await fetch(`${E2E.appUrl}/api/screenroom/invites/${invitation.id}/accept`, { method: "POST", headers: { Authorization: fellow.pb.authStore.token } });
  expect(accepted.status).toBe(200);
  const exportAs = async (pb: PocketBase, candidate: string) => {
    const res = await fetch(`${E2E.appUrl}/api/screenroom/candidates/${candidate}/export`, { headers: { Authorization: pb.authStore.token } });
    await res.arrayBuffer();
    expect(res.status).toBe(200);
  };
  const byOwner = await invite(owner.pb, job.id, "exported-owner");
  const byFellow = await invite(owner.pb, job.id, "exported-fellow");
  const erased = await invite(owner.pb, job.id, "erased");
  const withdrew = await invite(owner.pb, job.id, "withdrew");
  await exportAs(owner.pb, byOwner.id);
  await exportAs(fellow.pb, byFellow.id);
  await owner.pb.send(`/api/screenroom/candidates/${erased.id}/erase`, { method: "POST" });
  const key = await keyOf(withdrew.id);
  const gone = await fetch(`${E2E.appUrl}/api/screenroom/interviews/${encodeURIComponent(key)}/withdraw`, { method: "POST", headers: { "X-Candidate-Key": key } });
  expect(gone.status).toBe(200);

  await signInBrowser(page, owner.pb);
  await page.goto(`/companies/${company.id}/audit-log`);
  const table = page.getByRole("table", { name: "Audit log entries" });
  const rows = table.getByRole("row");
  await expect(rows).toHaveCount(5); // the header and four entries
  await expect(page.getByRole("status").filter({ hasText: "entries" })).toHaveText("4 entries.");

  const filter = page.getByRole("form", { name: "Filter the audit log" });
  // by who: the co-manager
  await filter.getByLabel("Who").selectOption({ label: "Zoë Fellow" });
  await filter.getByRole("button", { name: "Apply filter" }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("Zoë Fellow");
  await expect(rows.nth(1)).toContainText("Exported data");
  await expect(rows.nth(1)).toContainText(byFellow.id);
  expect(new URL(page.url()).searchParams.get("actor")).toBe(fellow.user.id);

  // by action, anyone
  await filter.getByLabel("Who").selectOption({ label: "Anyone" });
  await filter.getByLabel("Action").selectOption({ label: "Withdrew and deleted their answers" });
  await filter.getByRole("button", { name: "Apply filter" }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("The candidate (withdrew)");

  // by days: a range that ends before it starts is refused on its field; one in the future matches nothing
  await filter.getByLabel("Action").selectOption({ label: "Any action" });
  await filter.getByLabel("From").fill("2099-01-02");
  await filter.getByLabel("To").fill("2099-01-01");
  await filter.getByRole("button", { name: "Apply filter" }).click();
  await expect(filter.getByText("The last day must not be before the first.")).toBeVisible();
  await filter.getByLabel("To").fill("2099-12-31");
  await filter.getByRole("button", { name: "Apply filter" }).click();
  await expect(page.getByText("No entries match this filter.")).toBeVisible();
  await expectAccessible(page, "audit log, filtered");

  // the exports as CSV: UTF-8 with a byte-order mark, so the co-manager's name reads right in Excel
  await filter.getByRole("button", { name: "Clear" }).click();
  // the cleared filter is the address's: wait for the form to show it before choosing again
  await expect(filter.getByLabel("From")).toHaveValue("");
  await expect(page.getByRole("status").filter({ hasText: "entries" })).toHaveText("4 entries.");
  await filter.getByLabel("Action").selectOption({ label: "Exported data" });
  await filter.getByRole("button", { name: "Apply filter" }).click();
  await expect(rows).toHaveCount(3);
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = readFileSync((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString("utf8").trim().split("\r\n");
  expect(lines[0]).toBe("Time (ISO 8601),Time (UTC),Action,Actor kind,Actor id,Actor name,Actor e-mail,Candidate id");
  expect(lines.slice(1).map((line) => line.split(",").slice(2))).toEqual([
    ["export", "manager", fellow.user.id, "Zoë Fellow", fellow.email, byFellow.id],
    ["export", "manager", owner.user.id, "Olivia Owner", owner.email, byOwner.id],
  ]);
});
