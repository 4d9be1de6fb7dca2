// Issue 16 point 5: the manager's screens on a tablet (768×1024) and a phone (390×844). Nothing is wider than the
// viewport (the page never scrolls sideways), and every table sits in a box that scrolls it (overflow-x auto or
// scroll) and itself fits the viewport. Checked on the jobs list, the questions list, a job's page (pipeline and
// questions), the team page and a candidate's review, each also audited with axe.
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { answerWithText } from "./review-support";
import { createCompany, createQuestion, createUser, keyOf, signInBrowser, uniqueEmail } from "./support";

const VIEWPORTS = [
  { name: "tablet", width: 768, height: 1024 },
  { name: "phone", width: 390, height: 844 },
];

/** What sticks out: the page's own horizontal overflow, and tables not held by a scroll box inside the viewport. */
async function overflowOf(page: Page) {
  return page.evaluate(() => {
    const scroller = document.scrollingElement!;
    const tables = Array.from(document.querySelectorAll("table")).map((table) => {
      let box: HTMLElement | null = table.parentElement;
      while (box && !["auto", "scroll"].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
      const rect = box?.getBoundingClientRect();
      return {
        table: table.getAttribute("aria-label") ?? table.querySelector("th")?.textContent ?? "a table",
        scrolls: !!box && box !== document.body && box !== document.documentElement,
        fits: !!rect && rect.left >= -0.5 && rect.right <= window.innerWidth + 0.5,
      };
    });
    // what reaches past the right edge outside a scroll box, named for the failure message
    const past = Array.from(document.querySelectorAll<HTMLElement>("body *"))
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5 && !el.closest("table"))
      .slice(0, 8)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? "").slice(0, 40)}"`);
    return { scrollWidth: scroller.scrollWidth, innerWidth: window.innerWidth, tables, past };
  });
}

async function expectFits(page: Page, screen: string, { tables }: { tables: number }) {
  const result = await overflowOf(page);
  expect(result.scrollWidth, `${screen}: the page is wider than the viewport: ${result.past.join(" | ")}`).toBeLessThanOrEqual(result.innerWidth);
  expect(result.tables.length, `${screen}: its tables`).toBeGreaterThanOrEqual(tables);
  expect(result.tables.filter((t) => !t.scrolls || !t.fits), `${screen}: tables outside a scroll box in the viewport`).toEqual([]);
  await expectAccessible(page, screen);
}

/** A company with long titles (what a real one has), questions of both kinds, a job with candidates, one answered. */
async function world() {
  const manager = await createUser({ firstName: "Maria", lastName: "Manager-With-A-Rather-Long-Surname" });
  const company = await createCompany(manager.pb, "Responsive Screening Company International");
  const video = await createQuestion(manager.pb, company.id, "video", { title: "Introduce yourself and walk us through a project you are proud of" });
  const text = await createQuestion(manager.pb, company.id, "text", { title: "Why would you like to work with our customer support team?" });
  const job = await manager.pb.collection("jobs").create({
    company: company.id,
    title: "Senior customer support engineer, Europe and Middle East",
    description: "Help our customers",
    location: "Remote",
    questions: [video.id, text.id],
  });
  await manager.pb.collection("jobs").create({ company: company.id, title: "Designer", description: "Design our product", location: "Berlin", questions: [text.id] });
  const candidate = await manager.pb.collection("candidates").create({ job: job.id, email: uniqueEmail("a-candidate-with-a-long-address") });
  await manager.pb.collection("candidates").create({ job: job.id, email: uniqueEmail("another-candidate") });
  await answerWithText(await keyOf(candidate.id), text.id, "Because I enjoy helping people solve their problems.");
  return { manager, company, job, candidate };
}

for (const viewport of VIEWPORTS) {
  test(`the manager's screens fit a ${viewport.name} (${viewport.width}×${viewport.height})`, async ({ page }) => {
    const w = await world();
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await signInBrowser(page, w.manager.pb);
    const c = w.company.id;

    await page.goto(`/companies/${c}/jobs`);
    await expect(page.getByRole("columnheader", { name: "Completed" })).toBeVisible();
    // the counts arrived: the job's two candidates, one started
    const row = page.getByRole("row", { name: /Senior customer support engineer/ });
    await expect(row.getByRole("cell").nth(1)).toHaveText("1");
    await expectFits(page, "the jobs list", { tables: 1 });

    await page.goto(`/companies/${c}/questions`);
    await expect(page.getByRole("row", { name: /Why would you like/ }).getByText("2 jobs")).toBeVisible();
    await expectFits(page, "the questions list", { tables: 1 });

    await page.goto(`/companies/${c}/jobs/${w.job.id}`);
    await expect(page.getByRole("link", { name: w.candidate.email as string })).toBeVisible();
    await expectFits(page, "the job's page", { tables: 1 });

    await page.goto(`/companies/${c}/team`);
    await expect(page.getByText("Manager-With-A-Rather-Long-Surname").first()).toBeVisible();
    await expectFits(page, "the team page", { tables: 0 });

    await page.goto(`/companies/${c}/jobs/${w.job.id}/candidates/${w.candidate.id}`);
    await expect(page.getByText("Because I enjoy helping people solve their problems.")).toBeVisible();
    await expectFits(page, "the review", { tables: 0 });
  });
}
