// lighthouse: the three pages audited by Lighthouse. Lighthouse and puppeteer-core are imported inside the function,
// so only a run that measures this part loads them.
import { LIGHTHOUSE_RUNS } from "./options.mjs";

/**
 * Lighthouse's performance score and LCP of a first visit to the three pages: mobile preset, simulated throttling,
 * Debian's Chromium. A signed-in page gets the session into localStorage before the app's scripts run (after
 * Lighthouse's own storage reset), the way a returning manager opens it. Each page is audited LIGHTHOUSE_RUNS times
 * in a fresh browser and the median run (by score) is kept: the machine is shared, so single runs are noisy.
 */
export async function lighthouseScores(url, manager, seed) {
  const { default: lighthouse } = await import("lighthouse");
  const { default: puppeteer } = await import("puppeteer-core");
  const session = JSON.stringify({ token: manager.authStore.token, record: manager.authStore.record });
  const pages = {
    candidate: { path: `/candidates/${seed.startKey}`, session: null },
    signIn: { path: "/auth/sign-in", session: null },
    companyHome: { path: `/companies/${seed.companyId}`, session },
  };
  const result = {};
  for (const [name, { path, session: stored }] of Object.entries(pages)) {
    const runs = [];
    for (let run = 0; run < LIGHTHOUSE_RUNS; run++) {
      const browser = await puppeteer.launch({
        executablePath: process.env.CHROME_PATH || process.env.CHROMIUM_PATH || "/usr/bin/chromium",
        headless: true,
        args: ["--headless=new", "--no-sandbox", "--disable-gpu"],
      });
      try {
        const page = await browser.newPage();
        if (stored) {
          await page.evaluateOnNewDocument((value) => localStorage.setItem("pocketbase_auth", value), stored);
        }
        const { lhr } = await lighthouse(url + path, { output: "json", logLevel: "error", onlyCategories: ["performance"] }, undefined, page);
        if (lhr.runtimeError) throw new Error(`Lighthouse on ${path}: ${lhr.runtimeError.message}`);
        const audit = (id) => lhr.audits[id]?.numericValue;
        runs.push({
          score: Math.round((lhr.categories.performance.score ?? 0) * 100),
          lcpMs: Math.round(audit("largest-contentful-paint")),
          fcpMs: Math.round(audit("first-contentful-paint")),
          tbtMs: Math.round(audit("total-blocking-time")),
          cls: Math.round(audit("cumulative-layout-shift") * 1000) / 1000,
          finalUrl: lhr.finalDisplayedUrl,
        });
      } finally {
        await browser.close();
      }
    }
    const sorted = [...runs].sort((a, b) => a.score - b.score);
    result[name] = { path, ...sorted[Math.floor(sorted.length / 2)], runs: runs.map((r) => r.score) };
  }
  return result;
}
