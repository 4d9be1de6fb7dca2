// Issue 16, points 1 and 2: what a first-time manager is told. Sign-up says what happens next ('Check your inbox',
// with a resend that really sends again), and another company's URL says there is no access instead of showing an
// empty company.
import { expect, test } from "@playwright/test";
import { E2E } from "../scripts/lib/e2e-ports.mjs";
import { mailsTo } from "../scripts/lib/maildev.mjs";
import { expectAccessible } from "./a11y";
import { mailedLink, signInWithForm } from "./accounts-support";
import { createCompany, createUser, linksIn, PASSWORD, pathOf, signInBrowser, uniqueEmail } from "./support";

const VERIFY_SUBJECT = /Confirm your Screenroom e-mail/;

async function verificationMails(address: string) {
  return (await mailsTo(E2E.mailUrl, address)).filter((m) => VERIFY_SUBJECT.test(m.subject));
}

test("sign up, check the inbox, resend the e-mail (a second one arrives), confirm, sign in", async ({ page }) => {
  const email = uniqueEmail("inbox");
  await page.goto("/auth/sign-up");
  await page.getByLabel("First name").fill("Ada");
  await page.getByLabel("Last name").fill("Lovelace");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Repeat password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up" }).click();

  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
  await expect(page.getByText("Your account was created, please confirm your email")).toBeVisible();
  await expect(page.getByText(email, { exact: true })).toBeVisible();
  await page.screenshot({ path: "/tmp/shots/check-inbox.png", fullPage: true });
  await expectAccessible(page, "'Check your inbox'");
  await expect.poll(async () => (await verificationMails(email)).length).toBe(1);

  // the resend sends a second e-mail at once (PocketBase alone would drop it for two minutes), then rests
  const resend = page.getByRole("button", { name: "Resend the e-mail" });
  await resend.click();
  await expect(page.getByText(`We sent the e-mail again to ${email}.`)).toBeVisible();
  await expect(resend).toBeDisabled();
  await expect(page.getByText(/You can ask for another e-mail in \d+ seconds?\./)).toBeVisible();
  await expect.poll(async () => (await verificationMails(email)).length).toBe(2);

  // signing in before confirming explains the same and offers the resend
  await page.getByRole("link", { name: "Sign In" }).click();
  await signInWithForm(page, email, PASSWORD);
  await expect(page.getByText("Please confirm your e-mail first")).toBeVisible();
  await expect(page.getByRole("alert")).toContainText(email);
  await expect(page.getByRole("button", { name: "Resend the e-mail" })).toBeVisible();

  // the newest e-mail's link confirms the address
  const newest = (await verificationMails(email)).pop()!;
  const link = linksIn(newest).find((href) => href.includes("/auth/confirm-verification/"));
  expect(link).toBeTruthy();
  await page.goto(pathOf(link!));
  await expect(page.getByText("Your email is confirmed, you can sign in now")).toBeVisible();

  await signInWithForm(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/companies\/new$/);
});

test("'Use another address' goes back to the form, and the new address gets its own e-mail", async ({ page }) => {
  const first = uniqueEmail("typo");
  const second = uniqueEmail("right");
  await page.goto("/auth/sign-up");
  await page.getByLabel("First name").fill("Grace");
  await page.getByLabel("Last name").fill("Hopper");
  await page.getByLabel("Email").fill(first);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Repeat password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();

  await page.getByRole("button", { name: "Use another address" }).click();
  await expect(page.getByLabel("Email")).toHaveValue("");
  await expect(page.getByLabel("First name")).toHaveValue("Grace");
  await page.getByLabel("Email").fill(second);
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByText(second, { exact: true })).toBeVisible();
  await page.goto(await mailedLink(second, VERIFY_SUBJECT, "/auth/confirm-verification/"));
  await expect(page.getByText("Your email is confirmed, you can sign in now")).toBeVisible();
});

test("a sign-up with a known e-mail and a wrong password say so in the app's words", async ({ page }) => {
  const { email } = await createUser();
  await page.goto("/auth/sign-up");
  await page.getByLabel("First name").fill("Ada");
  await page.getByLabel("Last name").fill("Lovelace");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Repeat password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByText("An account with this e-mail already exists. Sign in, or use another address.")).toBeVisible();
  await expect(page.getByText(/Value must be unique/)).toHaveCount(0);

  await signInWithForm(page, email, "not-the-password");
  await expect(page.getByText("The e-mail or password is not right. Check them and try again.")).toBeVisible();
  await expect(page.getByText(/Failed to authenticate/)).toHaveCount(0);
});

test("another company's URL, or one that does not exist, says there is no access, not an empty company", async ({ page }) => {
  const owner = await createUser({ firstName: "Olga", lastName: "Owner" });
  const theirs = await createCompany(owner.pb, "Their Company");
  const visitor = await createUser({ firstName: "Vic", lastName: "Visitor" });
  const mine = await createCompany(visitor.pb, "My Company");
  await signInBrowser(page, visitor.pb);

  for (const path of [`/companies/${theirs.id}`, `/companies/${theirs.id}/questions`, "/companies/nosuchcompany00/jobs"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: "You don't have access to this company" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Add Job" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Add Job" })).toHaveCount(0);
  }
  await page.screenshot({ path: "/tmp/shots/no-company-access.png", fullPage: true });
  await expectAccessible(page, "'You don't have access to this company'");
  await page.getByRole("link", { name: "Go to your company" }).click();
  await expect(page).toHaveURL(new RegExp(`/companies/${mine.id}/jobs$`));
  await expect(page.getByRole("heading", { name: "Jobs" })).toBeVisible();
  // the server holds the line whatever the page says
  await expect(visitor.pb.collection("companies").getOne(theirs.id)).rejects.toMatchObject({ status: 404 });
});
