import { expect, test } from "@playwright/test";
import { superuser } from "./support";

test("a signed-out visitor at / lands on the sign-in screen", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/auth\/sign-in$/);
  await expect(page.getByRole("heading", { name: "Sign In" })).toBeVisible();
});

test("an unknown path shows the 404 text", async ({ page }) => {
  await page.goto("/no/such/place");
  await expect(page.getByText("404: No such page!")).toBeVisible();
});

test("legacy /sign-up keeps its query string on the way to /auth/sign-up", async ({ page }) => {
  await page.goto("/sign-up?invite=abc&email=b%40example.com");
  await expect(page).toHaveURL(/\/auth\/sign-up\?invite=abc&email=b%40example.com$/);
});

test("the PocketBase serving the app has the product's schema", async ({ request }) => {
  // what only this product's migrations and hooks give: its own routes and its candidates' key
  const interview = await request.get(`/api/screenroom/interviews/${"x".repeat(40)}`, { headers: { "X-Candidate-Key": "x".repeat(40) } });
  expect(interview.status()).toBe(404);
  expect((await interview.json()).message).toBe("This interview link is not valid.");
  const su = await superuser();
  const candidates = await su.collections.getOne("candidates");
  expect(candidates.fields.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(["job", "email", "secret", "linkReplaced"]));
  const companies = await su.collections.getOne("companies");
  expect(companies.fields.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(["name", "website", "logo", "managers", "owner"]));
  // and an anonymous visitor lists no company
  const res = await request.get("/api/collections/companies/records");
  expect(res.status()).toBe(200);
  expect((await res.json()).items).toEqual([]);
});
