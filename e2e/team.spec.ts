// Issue 16 point 4: another company from the switcher, and the owner removing a member from the team page
// (real PocketBase + MailDev, the production build).
import { expect, test } from "@playwright/test";
import { createCompany, createUser, fixturePath, signInBrowser, superuser } from "./support";

test("the owner creates another company from the switcher, then removes a member, who loses access at once", async ({ page }) => {
  const owner = await createUser({ firstName: "Olga", lastName: "Owner" });
  const member = await createUser({ firstName: "Milo", lastName: "Member" });
  const company = await createCompany(owner.pb, "Initech Hiring");
  // the member joined earlier (the invite flow is companies.spec.ts's)
  const su = await superuser();
  await su.collection("companies").update(company.id, { "managers+": member.user.id });
  await su.collection("users").update(member.user.id, { primaryCompany: company.id });
  await owner.pb.collection("users").authRefresh();
  await signInBrowser(page, owner.pb);

  // another company: the switcher's 'New company' opens the create-company screen
  await page.goto(`/companies/${company.id}`);
  await page.getByRole("combobox", { name: "Company" }).click();
  await page.getByRole("option", { name: "New company" }).click();
  await expect(page).toHaveURL(/\/companies\/new$/);
  await expect(page.getByRole("heading", { name: "Create company" })).toBeVisible();
  await page.getByLabel("Logo").setInputFiles(fixturePath("logo.png"));
  await page.getByLabel("Name").fill("Initech Labs");
  await page.getByLabel("Website").fill("https://labs.example.com");
  await page.getByRole("button", { name: "Create Company" }).click();
  await expect(page).toHaveURL(/\/companies\/[a-z0-9]{15}\/jobs$/);
  const secondId = page.url().match(/\/companies\/([a-z0-9]{15})\//)![1]!;
  expect(secondId).not.toBe(company.id);
  await expect(page.getByRole("combobox", { name: "Company" })).toContainText("Initech Labs");
  const second = await su.collection("companies").getOne(secondId);
  expect(second.owner).toBe(owner.user.id);
  // both companies are in the switcher
  await page.getByRole("combobox", { name: "Company" }).click();
  await expect(page.getByRole("option", { name: "Initech Hiring" })).toBeVisible();
  await page.getByRole("option", { name: "Initech Hiring" }).click();
  await expect(page).toHaveURL(new RegExp(`/companies/${company.id}`));

  // the team page: names, the owner marked, 'Remove' only on the member's row
  await page.goto(`/companies/${company.id}/team`);
  const managers = page.getByRole("region", { name: "Managers" });
  await expect(managers.getByRole("row").filter({ hasText: "Olga Owner" })).toContainText("Owner");
  await expect(managers.getByRole("button", { name: "Remove Olga Owner" })).toHaveCount(0);
  await managers.getByRole("button", { name: "Remove Milo Member" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Remove Milo Member from the team?" });
  await expect(dialog).toContainText("stops being a manager of Initech Hiring at once");
  await dialog.getByRole("button", { name: "Remove member" }).click();
  // the row goes (the toast saying so is gone again after a few seconds: the row is what stays)
  await expect(dialog).toBeHidden();
  await expect(managers).not.toContainText("Milo Member");

  // on the server: gone from the managers, and the member's own session reads nothing of the company any more
  expect((await su.collection("companies").getOne(company.id)).managers).toEqual([owner.user.id]);
  await expect(member.pb.collection("companies").getOne(company.id)).rejects.toMatchObject({ status: 404 });
});
