// Issue 4: companies and team, managers invited by e-mail end to end (real PocketBase + MailDev).
import { expect, test, type Page } from "@playwright/test";
import { E2E } from "../scripts/lib/e2e-ports.mjs";
import {
  client,
  createCompany,
  createQuestion,
  createUser,
  fixturePath,
  linksIn,
  pathOf,
  signInBrowser,
  superuser,
  uniqueEmail,
  waitForMail,
} from "./support";

async function signUpInBrowser(page: Page, fields: { firstName: string; lastName: string; email?: string; password: string }) {
  await page.getByLabel("First name").fill(fields.firstName);
  await page.getByLabel("Last name").fill(fields.lastName);
  if (fields.email) await page.getByLabel("Email").fill(fields.email);
  await page.getByLabel("Password", { exact: true }).fill(fields.password);
  await page.getByLabel("Repeat password").fill(fields.password);
}

test("manager A creates and edits a company, invites B by e-mail, and B joins through sign-up", async ({ page, browser }) => {
  const aEmail = uniqueEmail("manager-a");
  const bEmail = uniqueEmail("manager-b");
  const password = "a-long-password-1";

  // A signs up, confirms the e-mail from MailDev, signs in and lands on "create your first company"
  await page.goto("/auth/sign-up");
  await signUpInBrowser(page, { firstName: "Alice", lastName: "Anders", email: aEmail, password });
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
  const verification = await waitForMail(aEmail, /confirm/i);
  await page.goto(pathOf(linksIn(verification).find((l) => l.includes("/auth/confirm-verification/"))!));
  await expect(page).toHaveURL(/\/auth\/sign-in/);
  await page.getByLabel("Email").fill(aEmail);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/companies\/new$/);

  // the spec's messages before anything is sent
  await page.getByRole("button", { name: "Create Company" }).click();
  await expect(page.getByText("Company name is required")).toBeVisible();
  await expect(page.getByText("Company website is required")).toBeVisible();
  await expect(page.getByText("Company logo is required")).toBeVisible();

  await page.getByLabel("Logo").setInputFiles(fixturePath("logo.png"));
  await expect(page.getByRole("img", { name: "Company logo preview" })).toBeVisible();
  await page.getByLabel("Name").fill("Acme Hiring");
  await page.getByLabel("Website").fill("https://acme.example.com");
  await page.getByRole("button", { name: "Create Company" }).click();
  await expect(page).toHaveURL(/\/companies\/[a-z0-9]{15}\/jobs$/);
  const companyId = page.url().match(/\/companies\/([a-z0-9]{15})\//)![1]!;
  await expect(page.getByRole("combobox", { name: "Company" })).toContainText("Acme Hiring");

  // the server made A the manager and the primary company, and serves the logo back
  const su = await superuser();
  const stored = await su.collection("companies").getOne(companyId);
  const aUser = await su.collection("users").getFirstListItem(su.filter("email = {:e}", { e: aEmail }));
  expect(stored.managers).toEqual([aUser.id]);
  expect(stored.owner).toBe(aUser.id);
  expect(aUser.primaryCompany).toBe(companyId);
  const logo = await fetch(su.files.getURL(stored, stored.logo));
  expect(logo.status).toBe(200);
  expect(logo.headers.get("content-type")).toBe("image/png");

  // edit: the current logo shows until a new one is picked; Update Company goes to '/'
  await page.goto(`/companies/${companyId}/edit`);
  await expect(page.getByRole("img", { name: "Company logo preview" })).toHaveAttribute("src", new RegExp(`/api/files/.+/${companyId}/`));
  await page.getByLabel("Name").fill("Acme Talent");
  await page.getByRole("button", { name: "Update Company" }).click();
  await expect(page).toHaveURL(new RegExp(`/companies/${companyId}/jobs$`));
  await expect(page.getByRole("combobox", { name: "Company" })).toContainText("Acme Talent");
  expect((await su.collection("companies").getOne(companyId)).name).toBe("Acme Talent");

  // team: inviting A itself is refused under the field; B's invite is pending and e-mailed
  await page.goto(`/companies/${companyId}/team`);
  await page.getByLabel("Email").fill(aEmail);
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(page.getByText("This person is already a manager of this company")).toBeVisible();
  await page.getByLabel("Email").fill(bEmail);
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(page.getByRole("region", { name: "Pending invites" })).toContainText(bEmail);
  await page.getByLabel("Email").fill(bEmail);
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(page.getByText("This person has already been invited")).toBeVisible();

  // B follows the sign-up link of the e-mail: the e-mail is fixed, the button accepts the invitation
  const inviteMail = await waitForMail(bEmail, /invited/i);
  const signUpLink = linksIn(inviteMail).find((l) => l.includes("/auth/sign-up?invite="));
  expect(signUpLink).toBeDefined();
  const bContext = await browser.newContext({ baseURL: E2E.appUrl });
  const b = await bContext.newPage();
  await b.goto(pathOf(signUpLink!));
  await expect(b.getByLabel("Email")).toHaveValue(bEmail);
  await expect(b.getByLabel("Email")).toBeDisabled();
  await signUpInBrowser(b, { firstName: "Bruno", lastName: "Berg", password });
  await b.getByRole("button", { name: "Accept invitation" }).click();
  await expect(b).toHaveURL(new RegExp(`/companies/${companyId}/jobs$`));
  await expect(b.getByRole("combobox", { name: "Company" })).toContainText("Acme Talent");
  await bContext.close();

  // A's team table lists B, without a reload of anything but the screen; A, the creator, is the owner
  await page.reload();
  const managers = page.getByRole("region", { name: "Managers" });
  await expect(managers).toContainText(bEmail);
  await expect(managers.getByRole("row").filter({ hasText: aEmail })).toContainText("Owner");
  await expect(managers.getByRole("row").filter({ hasText: bEmail })).not.toContainText("Owner");
  await expect(page.getByRole("region", { name: "Pending invites" })).toHaveCount(0);
});

test("an existing user accepts through /invites/..., and only the invited user sees the button", async ({ page, browser }) => {
  const a = await createUser({ firstName: "Anna", lastName: "Admin" });
  const company = await createCompany(a.pb, "Globex Screening");
  const question = await createQuestion(a.pb, company.id, "text");
  const job = await a.pb.collection("jobs").create({
    company: company.id,
    title: "Field engineer",
    description: "Install things",
    location: "Oslo",
    questions: [question.id],
  });
  const c = await createUser({ firstName: "Carla", lastName: "Cruz" });
  const invite = await a.pb.collection("manager_invites").create({ company: company.id, email: c.email });

  // before accepting, the server keeps C out of A's company: no jobs, no updates
  expect((await c.pb.collection("jobs").getFullList({ filter: c.pb.filter("company = {:c}", { c: company.id }) })).length).toBe(0);
  await expect(c.pb.collection("companies").update(company.id, { name: "Hijacked" })).rejects.toMatchObject({ status: 404 });

  const mail = await waitForMail(c.email, /invited/i);
  const acceptPath = pathOf(linksIn(mail).find((l) => l.includes(`/invites/${invite.id}/`))!);

  // signed out: the links to sign in or sign up; the sign-up carries the invite's key (hidden, read as superuser)
  const key = (await (await superuser()).collection("manager_invites").getOne(invite.id)).secret as string;
  expect(acceptPath).toContain(`?key=${key}`);
  await page.goto(acceptPath);
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign up" })).toHaveAttribute("href", new RegExp(`invite=${key}`));

  // signed in as someone else: no button, a line saying whom the invite is for
  const d = await createUser({ firstName: "Dora", lastName: "Dunn" });
  const dContext = await browser.newContext({ baseURL: E2E.appUrl });
  const dPage = await dContext.newPage();
  await signInBrowser(dPage, d.pb);
  await dPage.goto(acceptPath);
  await expect(dPage.getByText(`This invite is for ${c.email}`)).toBeVisible();
  await expect(dPage.getByRole("button", { name: "Accept invite" })).toHaveCount(0);
  await dContext.close();

  // the invitee signs in from the invite's 'Sign in' link, comes back to the invite and accepts
  const cContext = await browser.newContext({ baseURL: E2E.appUrl });
  const cPage = await cContext.newPage();
  await cPage.goto(acceptPath);
  await cPage.getByRole("link", { name: "Sign in" }).click();
  await cPage.getByLabel("Email").fill(c.email);
  await cPage.getByLabel("Password").fill(c.password);
  await cPage.getByRole("button", { name: "Sign In" }).click();
  await expect(cPage).toHaveURL(new RegExp(`/invites/${invite.id}/`));
  await cPage.getByRole("button", { name: "Accept invite" }).click();
  await expect(cPage).toHaveURL(new RegExp(`/companies/${company.id}/jobs$`));
  await expect(cPage.getByRole("combobox", { name: "Company" })).toContainText("Globex Screening");
  await cContext.close();

  const after = client();
  await after.collection("users").authWithPassword(c.email, c.password);
  expect((await after.collection("jobs").getFullList({ filter: after.filter("company = {:c}", { c: company.id }) })).map((j) => j.id)).toEqual([job.id]);
  await expect(after.collection("manager_invites").getOne(invite.id)).rejects.toMatchObject({ status: 404 });

  // the invite is spent: opening the link again says so
  await cPage.close().catch(() => undefined);
  const again = await browser.newContext({ baseURL: E2E.appUrl });
  const againPage = await again.newPage();
  await signInBrowser(againPage, after);
  await againPage.goto(acceptPath);
  await expect(againPage.getByText("This invitation is no longer valid")).toBeVisible();
  await again.close();
});
