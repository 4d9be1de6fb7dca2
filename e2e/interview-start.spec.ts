// Issue 17 points 1 and 2 in real Chromium: the start screen carries the company's logo and name, the job's welcome
// message, and keeps 'Start Interview' disabled until 'I agree' is ticked; starting stores the consent on the server.
import { expect, test } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { seedInterview } from "./interview-support";
import { superuser } from "./support";

test("the start screen shows the company's brand and welcome, and starts only after 'I agree'", async ({ page }) => {
  const { candidate, key, questions } = await seedInterview(
    [
      { kind: "text", title: "Why this job", timeout: 90 },
      { kind: "text", title: "Anything else", timeout: 60 },
    ],
    { consent: false, welcomeMessage: "Hello from Globex!\nTake your time.", privacyUrl: "https://globex.example.com/privacy" },
  );

  await page.goto(`/candidates/${key}`);
  await expect(page.getByRole("heading", { name: "Interview at Globex Hiring" })).toBeVisible();
  const brand = page.getByTestId("interview-brand");
  await expect(brand.getByText("Globex Hiring")).toBeVisible();
  await expect(brand.getByText("Support engineer")).toBeVisible();
  // the logo is the company's, and the candidate can load it
  const logo = brand.locator("img");
  await expect(logo).toHaveAttribute("src", /\/api\/files\/.+\/logo/);
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(page.getByText("Screenroom", { exact: true })).toHaveCount(0);

  await expect(page.getByText(/There are 2 questions, about 3 minutes of answers in all\./)).toBeVisible();
  const welcome = page.getByTestId("welcome-message");
  await expect(welcome).toHaveText("Hello from Globex!\nTake your time.", { useInnerText: true });
  await expect(page.getByText("Your answers will be seen by the hiring team at Globex Hiring.")).toBeVisible();
  const privacy = page.getByRole("link", { name: "Read Globex Hiring's privacy policy" });
  await expect(privacy).toHaveAttribute("href", "https://globex.example.com/privacy");
  await expect(privacy).toHaveAttribute("target", "_blank");
  await expect(privacy).toHaveAttribute("rel", /noopener/);

  const start = page.getByRole("button", { name: "Start Interview" });
  await expect(start).toBeDisabled();
  await expectAccessible(page, "interview start");

  const admin = await superuser();
  expect((await admin.collection("candidates").getOne(candidate.id)).consentedAt).toBe("");
  await page.getByLabel("I agree").check();
  await expect(start).toBeEnabled();
  await start.click();
  await expect(page).toHaveURL(new RegExp(`/candidates/${key}/questions/${questions[0]!.id}$`));
  expect((await admin.collection("candidates").getOne(candidate.id)).consentedAt).not.toBe("");
  // the question screen carries the company's brand too
  await expect(page.getByTestId("interview-brand").getByText("Globex Hiring")).toBeVisible();
});
