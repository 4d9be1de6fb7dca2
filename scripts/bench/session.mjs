// session: a manager opening 20 jobs in a row, for the API requests each opening makes and the JS heap's growth.
import { chromium } from "@playwright/test";
import { round } from "./numbers.mjs";

/**
 * A manager opens 20 jobs in a row from the jobs list (View, then back): the API requests each opening makes,
 * and the JS heap after a forced garbage collection at the start and at the end (a leak grows it).
 */
export async function managerSession(url, manager, seed) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const context = await browser.newContext();
    const session = JSON.stringify({ token: manager.authStore.token, record: manager.authStore.record });
    await context.addInitScript((value) => globalThis.localStorage.setItem("pocketbase_auth", value), session);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    const heap = async () => {
      await cdp.send("HeapProfiler.collectGarbage");
      const { metrics } = await cdp.send("Performance.getMetrics");
      return metrics.find((m) => m.name === "JSHeapUsedSize").value;
    };
    let apiRequests = 0;
    page.on("request", (r) => {
      if (new URL(r.url()).pathname.startsWith("/api/") && !r.url().includes("/api/realtime")) apiRequests += 1;
    });
    const jobsList = `${url}/companies/${seed.companyId}/jobs`;
    await page.goto(jobsList);
    await page.getByRole("link", { name: /^View / }).first().waitFor();
    const titles = await page.getByRole("link", { name: /^View / }).evaluateAll((links) => links.map((a) => a.getAttribute("aria-label")));
    const startHeap = await heap();
    const perOpening = [];
    for (const label of titles.slice(0, 20)) {
      const before = apiRequests;
      await page.getByRole("link", { name: label, exact: true }).click();
      await page.getByRole("heading", { level: 1, name: label.replace(/^View /, "") }).waitFor();
      await page.waitForLoadState("networkidle");
      perOpening.push(apiRequests - before);
      await page.goBack();
      await page.getByRole("link", { name: /^View / }).first().waitFor();
    }
    const endHeap = await heap();
    return {
      jobsOpened: perOpening.length,
      requestsPerOpening: { max: Math.max(...perOpening), total: perOpening.reduce((a, b) => a + b, 0) },
      heapMb: { start: round(startHeap / 1048576), end: round(endHeap / 1048576), growth: round((endHeap - startHeap) / 1048576) },
    };
  } finally {
    await browser.close();
  }
}
