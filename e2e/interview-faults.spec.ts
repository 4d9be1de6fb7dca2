import { expect, test, type Route } from "@playwright/test";
import { isFirefox, kindOf, recordTake, seedInterview, setOffline, stillSending, storedAnswers, uploadsBox, waitForAnswers } from "./interview-support";


/** The answer route the interview uploads to (server/internal/answers). */
const ANSWERS_ROUTE = "**/api/screenroom/answers";

/** How many records an object store of the interview's IndexedDB holds on this page (0 when it does not exist). */
function countIn(page: import("@playwright/test").Page, store: "pending-answers" | "takes" | "kept") {
  return page.evaluate(
    (name) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open("screenroom");
        open.onerror = () => reject(open.error ?? new Error("IndexedDB failed"));
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(name)) {
            db.close();
            return resolve(0);
          }
          const count = db.transaction(name).objectStore(name).count();
          count.onsuccess = () => {
            db.close();
            resolve(count.result);
          };
          count.onerror = () => reject(count.error ?? new Error("IndexedDB failed"));
        };
      }),
    store,
  );
}

/** How many submitted answers this page still keeps in IndexedDB. */
const localCopies = (page: import("@playwright/test").Page) => countIn(page, "pending-answers");
/** How many takes (submitted or not) this page keeps in IndexedDB. */
const localTakes = (page: import("@playwright/test").Page) => countIn(page, "takes");

test("the connection drops during an upload and comes back: exactly one answer arrives", async ({ page, context, browserName }) => {
  const { candidate, key, questions } = await seedInterview([
    { kind: "video", title: "Introduce yourself", timeout: 30, takes: 1 },
    { kind: "text", title: "Why this job" },
  ]);
  await page.goto(`/candidates/${key}/questions/${questions[0]!.id}`);
  await page.getByRole("button", { name: "View question" }).click();
  await recordTake(page);

  await setOffline(context, true, browserName);
  await page.getByRole("button", { name: "Submit answer" }).click();
  await expect(uploadsBox(page)).toContainText("The upload was interrupted. Retrying in");
  await page.screenshot({ path: "test-results/interview-upload-interrupted.png", fullPage: true });
  expect(await localCopies(page)).toBe(1);

  // When the connection comes back, the first attempt reaches the server but its response is lost on the way
  // back: the retry must recognise the stored answer instead of creating a second one.
  // Playwright's BiDi Firefox (1.56) keeps no request bodies, so route.fetch cannot send this one again (it hangs on
  // a body it does not have): in Firefox the first attempt goes through as it is and only the drop is played.
  const loseFirstResponse = !isFirefox(browserName);
  let attempts = 0;
  await page.route(ANSWERS_ROUTE, async (route: Route) => {
    attempts += 1;
    if (attempts === 1 && loseFirstResponse) {
      const response = await route.fetch();
      expect(response.status()).toBe(200);
      await route.abort("connectionreset");
    } else {
      await route.continue();
    }
  });
  await setOffline(context, false, browserName);

  await expect(stillSending(page)).toHaveCount(0, { timeout: 60_000 });
  expect(attempts).toBeGreaterThanOrEqual(loseFirstResponse ? 2 : 1);
  expect(await localCopies(page)).toBe(0);
  // confirmed: kept on the device for a day with its take, to send again what a restore of the server lost
  expect(await countIn(page, "kept")).toBe(1);
  expect(await localTakes(page)).toBe(1);
  const answers = await storedAnswers(candidate.id);
  expect(answers).toHaveLength(1);
  expect(answers[0]!.question).toBe(questions[0]!.id);
  expect(kindOf(answers[0]!, "video_answers_via_answer")).toBeDefined();
});

test("the page is reloaded during an upload: it resumes from the stored copy and one answer arrives", async ({ page }) => {
  const { candidate, key, questions } = await seedInterview([
    { kind: "video", title: "Introduce yourself", timeout: 30, takes: 1 },
    { kind: "text", title: "Why this job" },
  ]);
  // Hold the first upload so it is still pending when the page reloads.
  let held: Route | undefined;
  const bodies: string[] = [];
  await page.route(ANSWERS_ROUTE, async (route) => {
    bodies.push(route.request().headers()["content-type"] ?? "");
    if (!held) {
      held = route;
      return;
    }
    await route.continue();
  });
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.type());
    void dialog.accept();
  });

  await page.goto(`/candidates/${key}/questions/${questions[0]!.id}`);
  await page.getByRole("button", { name: "View question" }).click();
  await recordTake(page);
  await page.getByRole("button", { name: "Submit answer" }).click();
  await expect(uploadsBox(page)).toContainText("Uploading your answer");
  await expect.poll(() => held !== undefined).toBe(true);
  // The candidate went on to the next question while the upload runs.
  await expect(page).toHaveURL(new RegExp(`/questions/${questions[1]!.id}$`));
  await page.screenshot({ path: "test-results/interview-uploading.png", fullPage: true });

  await page.reload();
  expect(dialogs, "leaving asks for confirmation while an upload is pending").toContain("beforeunload");
  await held!.abort("connectionreset").catch(() => undefined);

  await expect(page.getByRole("button", { name: "View question" })).toBeVisible();
  await expect(stillSending(page)).toHaveCount(0, { timeout: 60_000 });
  const answers = await waitForAnswers(candidate.id, 1);
  expect(answers).toHaveLength(1);
  expect(kindOf(answers[0]!, "video_answers_via_answer")).toBeDefined();
  expect(await localCopies(page)).toBe(0);
  // confirmed: kept on the device for a day with its take, to send again what a restore of the server lost
  expect(await countIn(page, "kept")).toBe(1);
  expect(await localTakes(page)).toBe(1);
  // after the reload the stored copy went on from the bytes the server held (issue 20 point 5): the small request
  // again, never the whole file in one request
  expect(bodies.length).toBeGreaterThanOrEqual(2);
  expect(bodies.every((type) => type.startsWith("application/json")), bodies.join(", ")).toBe(true);
});

test("a take the candidate is still watching is kept on the device and the server, offered again after a reload, and never becomes an answer by itself", async ({ page }) => {
  const { candidate, key, questions } = await seedInterview([{ kind: "video", title: "Introduce yourself", timeout: 30, takes: 1 }]);
  let posted = 0;
  await page.route(ANSWERS_ROUTE, async (route) => {
    posted += 1;
    await route.continue();
  });
  // the take's parts went to the server while it was recorded; leaving the page keeps them (issue 22)
  const staged = new Set<string>();
  const withdrawn: string[] = [];
  page.on("request", (request) => {
    const take = /\/api\/screenroom\/takes\/([a-z0-9]+)(\/parts\/\d+)?/.exec(request.url());
    if (take && request.method() === "PUT") staged.add(take[1]!);
    if (take && !take[2] && request.method() === "DELETE") withdrawn.push(take[1]!);
  });
  await page.goto(`/candidates/${key}/questions/${questions[0]!.id}`);
  await page.getByRole("button", { name: "View question" }).click();
  await recordTake(page);
  expect(staged.size).toBe(1);
  // stored while the candidate watches it, before any 'Submit answer'
  await expect.poll(() => localTakes(page)).toBe(1);
  expect(await localCopies(page)).toBe(0);

  await page.reload();
  await page.getByRole("button", { name: "View question" }).click();
  // offered for review as the take it was: its one take is used, so there is no 'Record again'
  await expect(page.getByText(/^We kept your recording from \d\d:\d\d \(\d+:\d\d\)$/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Submit answer" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Record again" })).toHaveCount(0);
  expect(posted).toBe(0);
  expect(withdrawn).toEqual([]);
  expect(await storedAnswers(candidate.id)).toHaveLength(0);
  expect(await localCopies(page)).toBe(0);
  expect(await localTakes(page)).toBe(1);
});

test("camera permission denied: a clear message and a retry that works once allowed", async ({ browser }) => {
  const { key, questions } = await seedInterview([{ kind: "video", title: "Introduce yourself", timeout: 30 }]);
  const context = await browser.newContext({ permissions: [] });
  // --use-fake-ui-for-media-stream (Firefox: media.navigator.permission.disabled) grants every request, so the denial
  // is played by the page itself.
  await context.addInitScript(() => {
    const w = window as unknown as { __deny: boolean; __asked: number };
    w.__deny = true;
    w.__asked = 0;
    if (!navigator.mediaDevices) return; // about:blank before the app: Firefox has no mediaDevices there
    const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = (constraints) => {
      w.__asked += 1;
      if (w.__deny) return Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
      return original(constraints);
    };
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));

  await page.goto(`/candidates/${key}/questions/${questions[0]!.id}`);
  await page.getByRole("button", { name: "View question" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "Camera and microphone access is blocked" });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText("allow this site to use your camera and microphone");
  await page.screenshot({ path: "test-results/interview-camera-denied.png", fullPage: true });

  await page.getByRole("button", { name: "Try again" }).click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { __asked: number }).__asked)).toBe(2);
  await expect(alert).toBeVisible();

  await page.evaluate(() => ((window as unknown as { __deny: boolean }).__deny = false));
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("button", { name: "Start Recording" })).toBeEnabled();
  await expect(alert).toHaveCount(0);
  expect(errors).toEqual([]);
  await context.close();
});

test("opening the link again mid-interview resumes at the first unanswered question", async ({ page }) => {
  const { candidate, key, questions } = await seedInterview([
    { kind: "text", title: "First question" },
    { kind: "text", title: "Second question" },
    { kind: "text", title: "Third question" },
  ]);
  await page.goto(`/candidates/${key}`);
  await page.screenshot({ path: "test-results/interview-start.png", fullPage: true });
  await page.getByLabel("I agree").check();
  await page.getByRole("button", { name: "Start Interview" }).click();
  await page.getByRole("button", { name: "View question" }).click();
  await page.getByLabel("Your answer").fill("My first answer");
  await page.getByRole("button", { name: "Submit answer" }).click();
  await expect(page).toHaveURL(new RegExp(`/questions/${questions[1]!.id}$`));
  await page.screenshot({ path: "test-results/interview-intro.png", fullPage: true });
  await waitForAnswers(candidate.id, 1);

  await page.goto(`/candidates/${key}`);
  await expect(page.getByRole("heading", { name: "Interview at Globex Hiring" })).toBeVisible();
  await expect(page.getByText("you have answered 1 of 3")).toBeVisible();
  await page.getByLabel("I agree").check();
  await page.getByRole("button", { name: "Start Interview" }).click();
  await expect(page).toHaveURL(new RegExp(`/questions/${questions[1]!.id}$`));

  // An answered question cannot be opened again.
  await page.goto(`/candidates/${key}/questions/${questions[0]!.id}`);
  await expect(page).toHaveURL(new RegExp(`/questions/${questions[1]!.id}$`));
  expect(await storedAnswers(candidate.id)).toHaveLength(1);
});

test("when every question is answered the link shows the thank-you screen", async ({ page }) => {
  const { candidate, key, questions } = await seedInterview([{ kind: "text", title: "Only question" }]);
  await page.goto(`/candidates/${key}/questions/${questions[0]!.id}`);
  await page.getByRole("button", { name: "View question" }).click();
  await page.getByLabel("Your answer").fill("Done");
  await page.getByRole("button", { name: "Submit answer" }).click();
  await expect(page.getByRole("heading", { name: "Thank you" })).toBeVisible();
  await waitForAnswers(candidate.id, 1);

  await page.goto(`/candidates/${key}`);
  await expect(page).toHaveURL(new RegExp(`/candidates/${key}/finish$`));
  await expect(page.getByText("We'll get back to you soon")).toBeVisible();
});
