// Arabic laid out right to left, measured by where things are on the screen, not only by `dir`: in Chromium and in
// Firefox ESR (the expensive recorded and per-language journeys run once, in Chromium: candidate-languages.spec.ts).
import { expect, test, type Page } from "@playwright/test";

import { seedJob, t } from "./candidate-languages-support";
import { consentAs } from "./support";

test.describe("candidates in their own language", () => {
  test("Arabic is laid out right to left: the switcher, the start button and the answer's countdown change sides", async ({ page }) => {
    const { key, questions } = await seedJob("en", [{ kind: "text", title: "Frage Eins", timeout: 300 }]);
    const box = async (locator: ReturnType<Page["locator"]>) => {
      const found = await locator.boundingBox();
      if (!found) throw new Error("not on the screen");
      return found;
    };
    const frame = page.getByTestId("candidate-frame");
    const switcher = page.getByTestId("language-switcher");
    const middle = async () => {
      const f = await box(frame);
      return f.x + f.width / 2;
    };

    await page.goto(`/candidates/${key}`);
    const start = page.getByRole("button", { name: t("en", "start.button") });
    await expect(start).toBeVisible();
    const heading = page.getByRole("heading", { level: 1 });
    // the consent's tick and the label around it with its words
    const tick = page.getByRole("checkbox");
    const agreeLabel = page.locator("label", { has: tick });
    const en = { switcher: await box(switcher), start: await box(start), heading: await box(heading), middle: await middle() };
    // English: the switcher at the right, the button under the heading's left edge, the tick before the words
    expect(en.switcher.x).toBeGreaterThan(en.middle);
    expect(Math.abs(en.start.x - en.heading.x)).toBeLessThan(2);
    expect(Math.abs((await box(tick)).x - (await box(agreeLabel)).x)).toBeLessThan(2);

    await page.getByRole("combobox", { name: t("en", "switcher.label") }).selectOption("ar");
    const startAr = page.getByRole("button", { name: t("ar", "start.button") });
    await expect(startAr).toBeVisible();
    await expect(frame).toHaveAttribute("dir", "rtl");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    const ar = { switcher: await box(switcher), start: await box(startAr), heading: await box(heading) };
    // Arabic: the switcher at the left, the button under the heading's right edge
    expect(ar.switcher.x + ar.switcher.width).toBeLessThan(en.middle);
    expect(Math.abs(ar.start.x + ar.start.width - (ar.heading.x + ar.heading.width))).toBeLessThan(2);
    // the tick at the right of its words
    const tickAr = await box(tick);
    const labelAr = await box(agreeLabel);
    expect(Math.abs(tickAr.x + tickAr.width - (labelAr.x + labelAr.width))).toBeLessThan(2);

    // the text answer: its label at the start, the countdown at the end, mirrored
    await consentAs(key);
    await page.goto(`/candidates/${key}/questions/${questions[0]!.id}`);
    await page.getByRole("button", { name: t("ar", "intro.view") }).click();
    const label = page.getByText(t("ar", "textAnswer.label"), { exact: true });
    const timer = page.getByRole("timer");
    await expect(timer).toBeVisible();
    expect((await box(timer)).x).toBeLessThan((await box(label)).x);
    // nothing typed is lost when the candidate goes back to English, and the sides swap back
    await page.getByLabel(t("ar", "textAnswer.label")).fill("مرحبا");
    await page.getByRole("combobox", { name: t("ar", "switcher.label") }).selectOption("en");
    await expect(page.getByLabel(t("en", "textAnswer.label"))).toHaveValue("مرحبا");
    const labelEn = page.getByText(t("en", "textAnswer.label"), { exact: true });
    expect((await box(timer)).x).toBeGreaterThan((await box(labelEn)).x);
  });
});
