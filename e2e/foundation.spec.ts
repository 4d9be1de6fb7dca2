import { expect, test } from "@playwright/test";

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
  const res = await request.get("/api/collections/companies/records");
  expect(res.status()).toBe(200);
  expect((await res.json()).items).toEqual([]);
});
