// Helpers of the accounts journeys: the e-mail links and the shell's menus.
import { expect, type Page } from "@playwright/test";
import { linksIn, pathOf, waitForMail } from "./support";

/** The app path of the first link in the newest e-mail to `address` whose subject matches and that leads under `prefix`. */
export async function mailedLink(address: string, subject: RegExp, prefix: string): Promise<string> {
  const mail = await waitForMail(address, subject);
  const link = linksIn(mail).find((href) => href.includes(prefix));
  if (!link) throw new Error(`the e-mail "${mail.subject}" to ${address} has no link under ${prefix}`);
  return pathOf(link);
}

export async function signInWithForm(page: Page, email: string, password: string) {
  await page.goto("/auth/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

/** Opens the user menu of the top bar (the button shows the user's first and last name). */
export async function openUserMenu(page: Page, name: string) {
  await page.getByRole("banner").getByRole("button", { name }).click();
  await expect(page.getByRole("menu")).toBeVisible();
}
