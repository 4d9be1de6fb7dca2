// Issue 20 point 2 in real Chromium: a candidate's link and the sign-in are answered with their first screen already
// written (pocketbase/first_screens.go), readable with no script at all, and the app's own first render puts the same
// markup in its place: the server's copy and the app's are compared element by element, attribute by attribute, for
// each variant.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { seedInterview } from "./interview-support";
import { createCompany, createQuestion, createUser, PASSWORD, signInBrowser, superuser, uniqueEmail } from "./support";

const dbTime = (ms: number) => new Date(ms).toISOString().replace("T", " ");

/** What a screen is made of: each element's tag, attributes and text, ids and the state of its controls left out. */
function shape(page: Page) {
  return page.locator("#root").evaluate((root) => {
    // ids differ (the server's are fixed, the app's come from useId); the controls' state is the app's to give
    const skipped = new Set(["id", "for", "aria-labelledby", "disabled", "data-disabled", "checked", "readonly"]);
    const walk = (node: Node): unknown => {
      if (node.nodeType === Node.TEXT_NODE) return node.textContent;
      if (!(node instanceof Element)) return null;
      // the server gives the deadline in UTC, the app in the candidate's time zone: the rest of it must match
      if (node.getAttribute("data-testid") === "interview-deadline") return { tag: "deadline", text: /^Please finish by .+ \d{4}/.test(node.textContent ?? "") };
      const attributes = Array.from(node.attributes)
        .filter((a) => !skipped.has(a.name))
        .map((a) => `${a.name}=${a.name === "src" ? new URL(a.value, location.href).href : a.value}`)
        .sort();
      const children: unknown[] = [];
      for (const child of Array.from(node.childNodes)) {
        const value = walk(child);
        if (value === null || value === "") continue;
        // adjacent text nodes (JSX writes several) read as one
        if (typeof value === "string" && typeof children.at(-1) === "string") children[children.length - 1] += value;
        else children.push(value);
      }
      return { tag: node.tagName.toLowerCase(), attributes, children };
    };
    // the toaster (sonner) mounts its empty region when a screen that can toast has loaded: not part of a screen
    for (const region of Array.from(root.querySelectorAll('section[aria-label^="Notifications"]'))) region.remove();
    return Array.from(root.childNodes).map(walk).filter((value) => value !== null);
  });
}

/**
 * From the next page `page` opens: the elements the server wrote in #root, kept when the page has been read (before
 * any of the app's scripts run), to ask later whether the app's render kept them (src/lib/render-in-place.ts).
 */
async function keepWrittenElements(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener("readystatechange", () => {
      if (document.readyState !== "interactive") return;
      (window as unknown as { written?: Element[] }).written = Array.from(document.querySelectorAll("#root *"));
    });
  });
}

/**
 * Of the elements the server wrote, how many are still in the page and which are not. An avatar's fallback is left
 * out: Radix's Avatar renders an empty one first and its initials a moment later (once it knows there is no picture),
 * in a new element, whoever wrote the first one.
 */
function writtenElements(page: Page) {
  return page.evaluate(() => {
    const written = ((window as unknown as { written?: Element[] }).written ?? []).filter((e) => !e.matches(".rt-AvatarFallback"));
    const gone = written.filter((element) => !element.isConnected);
    return { kept: written.length - gone.length, gone: gone.map((element) => element.outerHTML.slice(0, 200)) };
  });
}

/** `path` opened with JavaScript off: only what the server wrote. */
async function serverScreen(browser: Browser, path: string) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(path);
  return { context, page };
}

test("the start screen comes written by the server, the same as the app renders it, for each variant", async ({ browser, page }) => {
  await keepWrittenElements(page);
  const plain = await seedInterview([{ kind: "text", title: "Why this job", timeout: 90 }, { kind: "video", title: "Show us", timeout: 60 }], {
    consent: false,
  });
  const full = await seedInterview([{ kind: "text", title: "Only one", timeout: 20 }], {
    consent: true,
    welcomeMessage: "Hello from Globex!\nTake your time.",
    privacyUrl: "https://globex.example.com/privacy",
  });
  // a candidate coming back: one answer stored, a deadline next week
  const back = await seedInterview([{ kind: "text", title: "First", timeout: 60 }, { kind: "text", title: "Second", timeout: 120 }]);
  const su = await superuser();
  await su.collection("answers").create({ candidate: back.candidate.id, question: back.questions[0]!.id });
  await su.collection("candidates").update(back.candidate.id, { deadline: dbTime(Date.now() + 7 * 24 * 3600_000) });
  for (const { key, agreed } of [
    { key: plain.key, agreed: false },
    { key: full.key, agreed: true },
    { key: back.key, agreed: true },
  ]) {
    const { context, page: noScript } = await serverScreen(browser, `/candidates/${key}`);
    // what a candidate reads before any script ran
    await expect(noScript.getByRole("heading", { name: "Interview at Globex Hiring" })).toBeVisible();
    await expect(noScript.getByRole("button", { name: "Start Interview" })).toBeDisabled();
    await expect(noScript.getByLabel("I agree")).toBeDisabled();
    const written = await shape(noScript);
    await context.close();

    await page.goto(`/candidates/${key}`);
    // the app has taken over: the box follows the candidate's consent, the button can start once agreed
    if (agreed) await expect(page.getByRole("button", { name: "Start Interview" })).toBeEnabled();
    else await expect(page.getByLabel("I agree")).toBeEnabled();
    expect(await shape(page)).toEqual(written);
    // and it is the server's page, taken over where it stood: the app's render built none of it again
    const { kept, gone } = await writtenElements(page);
    expect(gone).toEqual([]);
    expect(kept).toBeGreaterThan(10);
  }

  // what the variants said
  {
    const { context, page: noScript } = await serverScreen(browser, `/candidates/${back.key}`);
    await expect(noScript.getByText("Welcome back: you have answered 1 of 2. You continue where you left off.")).toBeVisible();
    await expect(noScript.getByTestId("interview-deadline")).toHaveText(/^Please finish by \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M UTC\.$/);
    await context.close();
  }
  const { context, page: noScript } = await serverScreen(browser, `/candidates/${full.key}`);
  await expect(noScript.getByText("There is 1 question, about 1 minute of answers in all.", { exact: false })).toBeVisible();
  await expect(noScript.getByTestId("welcome-message")).toHaveText("Hello from Globex!\nTake your time.", { useInnerText: true });
  await expect(noScript.getByRole("link", { name: "Read Globex Hiring's privacy policy" })).toHaveAttribute(
    "href",
    "https://globex.example.com/privacy",
  );
  await expect(noScript.getByLabel("I agree")).toBeChecked();
  await context.close();
});

test("the written page is personal, escaped and only for a start screen", async ({ page, request }) => {
  const { manager, company, job, candidate, key } = await seedInterview([{ kind: "text", title: "Why", timeout: 60 }], { consent: false });
  await manager.pb.collection("companies").update(company.id, { name: `Globex <script>alert(1)</script> & "Co"` });
  await manager.pb.collection("jobs").update(job.id, { title: "</script><img src=x onerror=alert(2)>" });

  const response = await request.get(`/candidates/${key}`, { headers: { "Accept-Encoding": "gzip" } });
  expect(response.status()).toBe(200);
  const headers = response.headers();
  expect(headers["content-type"]).toBe("text/html; charset=utf-8");
  expect(headers["content-encoding"]).toBe("gzip");
  expect(headers["cache-control"]).toBe("no-store");
  expect(headers["referrer-policy"]).toBe("no-referrer");
  expect(headers["content-security-policy"]).toContain("script-src 'self'");
  const html = await response.text();
  expect(html).toContain("Interview at Globex &lt;script&gt;alert(1)&lt;/script&gt; &amp; &#34;Co&#34;");
  expect(html).not.toContain("<script>alert(1)");
  expect(html).not.toContain("<img src=x");
  // the read the app starts from is in the page, and no value in it ends its element
  const data = /<script type="application\/json" id="screenroom-interview">(.*?)<\/script>/s.exec(html);
  expect(JSON.parse(data![1]!)).toMatchObject({ candidateId: candidate.id, jobTitle: "</script><img src=x onerror=alert(2)>" });

  // in the browser the names are text, and no script of theirs ran
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(`/candidates/${key}`);
  await expect(page.getByRole("heading", { name: `Interview at Globex <script>alert(1)</script> & "Co"` })).toBeVisible();
  await expect(page.getByLabel("I agree")).toBeEnabled();
  expect(dialogs).toEqual([]);

  // a key nobody holds, and a link whose interview closed: the ordinary page, with nothing of the interview in it
  const unknown = await (await request.get(`/candidates/${"x".repeat(40)}`)).text();
  expect(unknown).not.toContain(`id="screenroom-interview"`);
  expect(unknown).not.toContain("data-first-screen");
  await (await superuser()).collection("candidates").update(candidate.id, { withdrawn: true });
  const closed = await (await request.get(`/candidates/${key}`)).text();
  expect(closed).not.toContain(`id="screenroom-interview"`);
  expect(closed).not.toContain("Interview at");
  await page.goto(`/candidates/${key}`);
  await expect(page.getByRole("heading", { name: "This interview is no longer open" })).toBeVisible();
});

test("the sign-in screen comes written by the server too, the same as the app renders it, and signs in", async ({ browser, page }) => {
  const { context, page: noScript } = await serverScreen(browser, "/auth/sign-in");
  await expect(noScript.getByRole("heading", { name: "Sign In" })).toBeVisible();
  // without its script the form cannot be used, so it never sends a password anywhere
  await expect(noScript.getByLabel("Email")).not.toBeEditable();
  await expect(noScript.getByRole("button", { name: "Sign In" })).toBeDisabled();
  await expect(noScript.getByRole("link", { name: "Forgot your password?" })).toHaveAttribute("href", "/auth/reset-password");
  const written = await shape(noScript);
  await context.close();

  const user = await createUser();
  await keepWrittenElements(page);
  await page.goto("/auth/sign-in");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(PASSWORD);
  expect(await shape(page)).toEqual(written);
  const { kept, gone } = await writtenElements(page);
  expect(gone).toEqual([]);
  expect(kept).toBeGreaterThan(10);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).not.toHaveURL(/\/auth\/sign-in/);

  // with a query (a message to show, a page to return to) the app's own page answers
  const withQuery = await (await page.request.get("/auth/sign-in?next=%2Fpreferences")).text();
  expect(withQuery).not.toContain("data-first-screen");
});

test("the company home comes written by the server for its manager, the same as the app renders it", async ({ browser }) => {
  const manager = await createUser({ firstName: "grace", lastName: "Hopper" });
  const company = await createCompany(manager.pb, "Initech <Hiring> & Co");
  const su = await superuser();
  const question = await createQuestion(manager.pb, company.id, "text");
  const job = (title: string) =>
    manager.pb.collection("jobs").create({ company: company.id, title, description: "Work", location: "Remote", questions: [question.id] });
  const open = await job("Support engineer");
  const closed = await job("</script><b>Closed role</b>");
  const archived = await job("Old role");
  await su.collection("jobs").update(closed.id, { closedAt: new Date().toISOString().replace("T", " ") });
  await su.collection("jobs").update(archived.id, { archived: true });
  for (let i = 0; i < 3; i++) await manager.pb.collection("candidates").create({ job: open.id, email: uniqueEmail("candidate") });
  const empty = await createCompany(manager.pb, "Empty Corp");
  // the record as the app holds it after creating its companies (the primary company set)
  await manager.pb.collection("users").authRefresh();

  // a manager in Newfoundland (UTC-3:30): the dates are written in the browser's time zone, as the app writes them
  const context = await browser.newContext({ timezoneId: "America/St_Johns" });
  const page = await context.newPage();
  await signInBrowser(page, manager.pb);
  await keepWrittenElements(page);
  // the app keeps its session for page loads in a cookie (src/lib/session-cookie.ts): any visit writes it
  await page.goto("/preferences");
  await expect(page.getByRole("button", { name: /grace Hopper/ })).toBeVisible();
  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name === "sr_session");
  // the session's token as the app holds it (refreshed on load)
  const stored = await page.evaluate(() => (JSON.parse(localStorage.getItem("pocketbase_auth") ?? "{}") as { token?: string }).token);
  expect(session).toMatchObject({ value: stored, path: "/companies", sameSite: "Strict", httpOnly: false });
  expect(cookies.find((c) => c.name === "sr_tz")?.value).toBe("America/St_Johns");

  for (const [companyId, path] of [
    [company.id, `/companies/${company.id}`],
    [company.id, `/companies/${company.id}/jobs`],
    [empty.id, `/companies/${empty.id}`],
  ] as const) {
    const noScriptContext = await browser.newContext({ javaScriptEnabled: false, timezoneId: "America/St_Johns" });
    await noScriptContext.addCookies(cookies);
    const noScript = await noScriptContext.newPage();
    await noScript.goto(path);
    // what a manager reads before any script ran
    await expect(noScript.getByRole("heading", { name: "Jobs" })).toBeVisible();
    await expect(noScript.getByRole("combobox", { name: "Company" })).toHaveText(companyId === empty.id ? "Empty Corp" : "Initech <Hiring> & Co");
    await expect(noScript.getByLabel("Show archived jobs")).toBeDisabled();
    await expect(noScript.getByRole("searchbox", { name: "Search answers" })).not.toBeEditable();
    const written = await shape(noScript);
    await noScriptContext.close();

    // the page's stylesheets are in it: the app's chunks do not download them again
    const stylesheets: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (new URL(request.url()).pathname.endsWith(".css")) stylesheets.push(request.url());
    };
    page.on("request", onRequest);
    const response = await page.goto(path);
    expect(await response!.text()).toContain("data-first-screen");
    // the app has taken over: its toggle works
    await expect(page.getByLabel("Show archived jobs")).toBeEnabled();
    page.off("request", onRequest);
    expect(stylesheets).toEqual([]);
    await expect(page).toHaveURL(new RegExp(`/companies/${companyId}/jobs$`));
    expect(await shape(page)).toEqual(written);
    // taken over where it stood: the app's render built none of the written page again
    const { kept, gone } = await writtenElements(page);
    expect(gone).toEqual([]);
    expect(kept).toBeGreaterThan(10);
  }

  // what the written list said
  const noScriptContext = await browser.newContext({ javaScriptEnabled: false });
  await noScriptContext.addCookies(cookies);
  const noScript = await noScriptContext.newPage();
  await noScript.goto(`/companies/${company.id}`);
  const row = (title: string) => noScript.getByRole("row").filter({ has: noScript.getByRole("rowheader", { name: title, exact: true }) });
  await expect(row("Support engineer").getByRole("cell")).toHaveText(["3", "0", "0", /^\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/, "EditViewDelete"]);
  await expect(row("</script><b>Closed role</b>").getByText("Closed", { exact: true })).toBeVisible();
  await expect(noScript.getByText("Old role")).toHaveCount(0);
  // no button without its handler until the app runs: a click waits for the app's own
  await expect(noScript.getByRole("button", { name: "Delete Support engineer" })).toBeDisabled();
  await expect(noScript.getByRole("combobox", { name: "Company" })).toBeDisabled();
  await expect(noScript.getByRole("button", { name: /grace Hopper/ })).toContainText("GH");
  await noScriptContext.close();
  await context.close();
});

test("the company home is written only for a signed-in manager of the company", async ({ browser, request }) => {
  const manager = await createUser();
  const company = await createCompany(manager.pb, "Umbrella Hiring");
  const question = await createQuestion(manager.pb, company.id, "text");
  await manager.pb.collection("jobs").create({ company: company.id, title: "Secret role", description: "Work", location: "Remote", questions: [question.id] });
  const outsider = await createUser();
  await createCompany(outsider.pb, "Other Corp");
  const asCookie = (token: string) => ({ Cookie: `sr_session=${token}` });

  const own = await request.get(`/companies/${company.id}`, { headers: asCookie(manager.pb.authStore.token) });
  expect(own.headers()["cache-control"]).toBe("no-store");
  expect(own.headers()["vary"]).toContain("Cookie");
  expect(own.headers()["referrer-policy"]).toBe("no-referrer");
  const html = await own.text();
  expect(html).toContain("Secret role");
  const data = /<script type="application\/json" id="screenroom-company-home">(.*?)<\/script>/s.exec(html);
  expect(JSON.parse(data![1]!)).toMatchObject({ user: manager.user.id, company: company.id, jobs: [{ title: "Secret role" }] });

  // no cookie, another company's manager, a token that is not a session, a made-up token, a superuser's: the
  // ordinary page, with nothing of the company in it
  const su = await superuser();
  const fileToken = await manager.pb.files.getToken();
  for (const headers of [
    {},
    asCookie(outsider.pb.authStore.token),
    asCookie(fileToken),
    asCookie(manager.pb.authStore.token.slice(0, -4) + "AAAA"),
    asCookie(su.authStore.token),
  ]) {
    const page = await (await request.get(`/companies/${company.id}`, { headers })).text();
    expect(page).not.toContain("data-first-screen");
    expect(page).not.toContain("Secret role");
    expect(page).not.toContain("Umbrella Hiring");
  }
  // an unverified account: the app's own page (it asks to confirm the address first)
  await su.collection("users").update(outsider.user.id, { verified: false });
  await su.collection("companies").update(company.id, { "managers+": outsider.user.id });
  const unverified = await (await request.get(`/companies/${company.id}`, { headers: asCookie(outsider.pb.authStore.token) })).text();
  expect(unverified).not.toContain("Secret role");

  // signing out takes the cookie away
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInBrowser(page, manager.pb);
  await page.goto(`/companies/${company.id}`);
  await expect(page.getByRole("rowheader", { name: "Secret role" })).toBeVisible();
  expect((await context.cookies()).map((c) => c.name)).toContain("sr_session");
  await page.getByRole("button", { name: /Ada Lovelace/ }).click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page.getByRole("heading", { name: "Sign In" })).toBeVisible();
  expect((await context.cookies()).map((c) => c.name)).not.toContain("sr_session");
  await context.close();
});
