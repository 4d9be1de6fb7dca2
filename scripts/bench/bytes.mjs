// bytes: the JS and CSS a first visit to the candidate's interview, the sign-in and the company home downloads, and
// whether the candidate's visit loaded any chunk of the manager's screens (it must not).
import { chromium } from "@playwright/test";
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";
import { root } from "../lib/pocketbase.mjs";

/**
 * What each page shows once its real screen is there (the app rendered it and its controls work): the figure is
 * read after it, so nothing the screen needs is left out.
 */
export const CONTENT = {
  // the consent box: a written page showed it disabled until the app took over
  candidate: (page) => page.getByRole("checkbox"),
  signIn: (page) => page.getByRole("button", { name: "Sign In", exact: true }),
  companyHome: (page) => page.getByRole("row").nth(1).getByRole("link"),
};

/** Waits until the locator's element is shown and enabled, found again on each look (a render may replace it). */
async function screenShown(locator) {
  const until = Date.now() + 60_000;
  while (!(await locator.first().isVisible().catch(() => false)) || !(await locator.first().isEnabled().catch(() => false))) {
    if (Date.now() > until) throw new Error(`The page's screen never showed: ${locator}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * JS and CSS a first visit downloads, read from Chromium's network log, raw and gzip-compressed, the page's inline
 * scripts and stylesheets included, counted once the page's real screen is there (CONTENT).
 */
export async function firstVisitBytes(url, manager, seed) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
  const managerScreens = new Set(
    ["companies", "jobs", "questions", "preferences", "auth"].flatMap((feature) =>
      readdirSync(join(root, "src", "features", feature, "screens"))
        .filter((f) => f.endsWith(".tsx") && !f.includes(".test."))
        .map((f) => basename(f, ".tsx")),
    ),
  );
  managerScreens.add("manager-shell");
  const pages = {
    candidate: { path: `/candidates/${seed.startKey}`, session: null },
    signIn: { path: "/auth/sign-in", session: null },
    companyHome: { path: `/companies/${seed.companyId}`, session: { token: manager.authStore.token, record: manager.authStore.record } },
  };
  const result = {};
  try {
    for (const [name, { path, session }] of Object.entries(pages)) {
      const context = await browser.newContext();
      if (session) {
        await context.addInitScript((value) => localStorage.setItem("pocketbase_auth", value), JSON.stringify(session));
      }
      const page = await context.newPage();
      const files = [];
      page.on("response", async (response) => {
        const type = response.request().resourceType();
        // the page's inline scripts and stylesheets are first-visit bytes like the files
        if (type === "document") {
          const html = (await response.body().catch(() => Buffer.alloc(0))).toString("utf8");
          for (const [, css] of html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)) {
            const body = Buffer.from(css);
            files.push({ type: "stylesheet", name: "(inline style)", raw: body.length, gzip: gzipSync(body).length });
          }
          for (const [, attributes, js] of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
            if (/\bsrc=/.test(attributes) || /type="application\/json"/.test(attributes) || !js.trim()) continue;
            const body = Buffer.from(js);
            files.push({ type: "script", name: "(inline script)", raw: body.length, gzip: gzipSync(body).length });
          }
          return;
        }
        if (type !== "script" && type !== "stylesheet") return;
        const body = await response.body().catch(() => Buffer.alloc(0));
        files.push({ type, name: basename(new URL(response.url()).pathname), raw: body.length, gzip: gzipSync(body).length });
      });
      await page.goto(url + path, { waitUntil: "networkidle" });
      await screenShown(CONTENT[name](page));
      await page.waitForLoadState("networkidle");
      await page.waitForTimeout(300);
      const sum = (type, key) => files.filter((f) => f.type === type).reduce((n, f) => n + f[key], 0);
      result[name] = {
        path,
        js: { raw: sum("script", "raw"), gzip: sum("script", "gzip") },
        css: { raw: sum("stylesheet", "raw"), gzip: sum("stylesheet", "gzip") },
        files: files.map((f) => f.name),
        managerChunks: files.map((f) => f.name).filter((n) => managerScreens.has(n.replace(/-[A-Za-z0-9_-]{8}\.(js|css)$/, ""))),
      };
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return result;
}
