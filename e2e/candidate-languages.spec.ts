// Candidates in their own language, in real browsers against the real server (Chromium; right to left is
// candidate-languages-rtl.spec.ts, which Firefox ESR runs too): one whole recorded interview in German, every screen's
// visible text checked for English left over and kept as the test's snapshot; every language's start, intro card,
// data-request, thank-you and closed screens rendered and checked without recording again. The candidate withdraws at
// the end of the German journey, through the server's own route.
import { expect, test } from "@playwright/test";

import { expectAccessible } from "./a11y";
import { dbTime, expectNoEnglish, LOCALES, seedJob, t } from "./candidate-languages-support";
import { waitForAnswers } from "./interview-support";
import { consentAs, superuser } from "./support";

test.describe("candidates in their own language", () => {
  test("a whole recorded interview in German, every screen German, then the candidate withdraws", async ({ page }, info) => {
    const de = (key: string, values?: Record<string, string | number>) => t("de", key, values);
    const { candidate, key, questions, data } = await seedJob("de", [
      { kind: "video", title: "Stellen Sie sich vor", timeout: 60, preparation: 30 },
      { kind: "text", title: "Warum diese Stelle", timeout: 90 },
    ]);
    const screen = (name: string) => expectNoEnglish(page, info, name, data);

    await page.goto(`/candidates/${key}`);
    await expect(page.getByRole("heading", { level: 1, name: de("start.heading", { company: "Globex" }) })).toBeVisible();
    await expect(page.getByText(de("consent.retention", { company: "Globex", months: 6 }))).toBeVisible();
    await expect(page.getByRole("link", { name: de("consent.privacy", { company: "Globex" }) })).toBeVisible();
    await screen("start");
    await expectAccessible(page, "start (German)");
    await page.getByLabel(de("consent.agree")).check();
    await page.getByRole("button", { name: de("start.button") }).click();

    // the device check (its own screen and words), then the first question by its link
    await expect(page).toHaveURL(new RegExp(`/candidates/${key}/check$`));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await screen("device check");
    await page.goto(`/candidates/${key}/questions/${questions[0]!.id}`);

    await expect(page.getByTestId("answer-time")).toHaveText(de("intro.timeout", { timeout: 60 }));
    await expect(page.getByTestId("answer-kind")).toHaveText(de("intro.kind.videoPreparation", { preparation: de("time.seconds", { seconds: 30 }) }));
    await screen("video intro");
    await page.getByRole("button", { name: de("intro.view") }).click();
    await expect(page.getByText(de("question.take", { take: 1, takes: 1 }))).toBeVisible();
    await expect(page.getByTestId("preparation")).toHaveText(/^Die Aufnahme beginnt in \d:\d\d$/);
    await expect(page.getByRole("button", { name: de("question.startNow") })).toBeEnabled();
    await screen("preparation");
    await page.getByRole("button", { name: de("question.startNow") }).click();
    await expect(page.getByRole("button", { name: de("question.stop") })).toBeVisible();
    await expect(page.getByText(de("question.recording"))).toBeVisible();
    await screen("recording");
    await page.waitForTimeout(2500);
    await page.getByRole("button", { name: de("question.stop") }).click();
    await page.getByLabel(de("question.yourRecording")).waitFor();
    await screen("take review");
    await page.getByRole("button", { name: de("question.submit") }).click();

    await expect(page).toHaveURL(new RegExp(`/questions/${questions[1]!.id}$`));
    await expect(page.getByTestId("answer-time")).toHaveText(de("intro.timeout", { timeout: 90 }));
    await screen("text intro");
    await page.getByRole("button", { name: de("intro.view") }).click();
    await page.getByLabel(de("textAnswer.label")).fill("Ich löse gern knifflige Probleme.");
    await screen("text answer");
    await page.getByRole("button", { name: de("question.submit") }).click();

    await expect(page.getByRole("heading", { name: de("finish.heading") })).toBeVisible();
    // the thank-you is said once every answer arrived
    expect(await waitForAnswers(candidate.id, 2)).toHaveLength(2);
    await screen("thank you");

    await page.goto(`/candidates/${key}/data`);
    await expect(page.getByRole("heading", { level: 1, name: de("dataRequest.heading") })).toBeVisible();
    await expect(page.getByTestId("data-answered")).toHaveText(de("dataRequest.answered", { answered: 2 }));
    await screen("data request");
    await page.getByRole("button", { name: de("withdraw.button") }).click();
    const dialog = page.getByRole("alertdialog", { name: de("withdraw.title") });
    await expect(dialog).toContainText(de("withdraw.explain", { company: "Globex" }));
    await screen("withdraw confirmation");
    await dialog.getByRole("button", { name: de("withdraw.confirm") }).click();
    await expect(page.getByRole("heading", { name: de("withdrawn.heading") })).toBeVisible();
    await screen("withdrawn");
    // the server erased them as a manager's erasure does, and the link says so on every route
    await expect((await superuser()).collection("candidates").getOne(candidate.id)).rejects.toMatchObject({ status: 404 });
    await page.goto(`/candidates/${key}/questions/${questions[0]!.id}`);
    await expect(page.getByRole("heading", { name: de("withdrawn.heading") })).toBeVisible();
  });

  test("every language's screens: start, intro card, data request, thank-you, closed and a bad link", async ({ page }, info) => {
    const su = await superuser();
    // every language's job at once: the seeding is most of this test's time
    const jobs = await Promise.all(LOCALES.map((locale) => seedJob(locale, [{ kind: "text", title: "Frage Eins", timeout: 45 }])));
    for (const [index, locale] of LOCALES.entries()) {
      const { candidate, key, questions, data } = jobs[index]!;
      const check = (screen: string) => (locale === "en" ? Promise.resolve() : expectNoEnglish(page, info, `${locale} ${screen}`, data));

      await page.goto(`/candidates/${key}`);
      await expect(page.getByRole("heading", { level: 1, name: t(locale, "start.heading", { company: "Globex" }) })).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expect(page.locator("html")).toHaveAttribute("dir", locale === "ar" ? "rtl" : "ltr");
      await check("start");

      await consentAs(key);
      await page.goto(`/candidates/${key}/questions/${questions[0]!.id}`);
      await expect(page.getByTestId("answer-time")).toHaveText(t(locale, "intro.timeout", { timeout: 45 }));
      await expect(page.getByTestId("answer-kind")).toHaveText(t(locale, "intro.kind.textTimed"));
      await check("intro card");

      await page.goto(`/candidates/${key}/data`);
      await expect(page.getByRole("heading", { level: 1, name: t(locale, "dataRequest.heading") })).toBeVisible();
      await check("data request");

      await page.goto(`/candidates/${key}/finish`);
      await expect(page.getByRole("heading", { level: 1, name: t(locale, "finish.heading") })).toBeVisible();
      await check("thank you");

      // the deadline passes (a manager sets a future one; moved into the past as a superuser's tool may)
      await su.collection("candidates").update(candidate.id, { deadline: dbTime(Date.now() + 86_400_000) });
      await su.collection("candidates").update(candidate.id, { deadline: dbTime(Date.now() - 60_000) });
      await page.goto(`/candidates/${key}`);
      await expect(page.getByTestId("interview-closed")).toContainText(t(locale, "closed.deadline.text", { company: "Globex" }));
      await check("closed");

      // a link that opens nothing speaks the language chosen for it on this device
      await page.evaluate((chosen) => localStorage.setItem("screenroom.language.no-such-link", chosen), locale);
      await page.goto("/candidates/no-such-link");
      await expect(page.getByRole("heading", { name: t(locale, "invalidLink.heading") })).toBeVisible();
      await check("bad link");
    }
  });
});
