// Accessibility audits inside the journeys (issue 8): axe-core over the screen as a user sees it.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * Fails on serious or critical WCAG A/AA violations of the current screen, naming each one. `within`: a CSS selector
 * to audit only that part, e.g. an open modal dialog, since the page behind its overlay is dimmed and inert (axe
 * would measure the dimmed text's contrast).
 *
 * The audit is of the screen at rest, as a user reads it, never of a frame mid-animation: a toast sliding behind a
 * newer one, or a closing dialog's fading overlay, has text at part opacity that axe measures as low contrast (a
 * stacked sonner toast at 2.71:1 failed a CI run this way). So the page is audited with reduced motion (sonner and
 * Radix Themes then change state at once, so a toast's timer firing mid-audit shows no in-between frame either) once
 * every finite animation and transition under way has ended.
 */
export async function expectAccessible(page: Page, screen: string, within?: string) {
  await page.emulateMedia({ reducedMotion: "reduce" });
  try {
    await page.waitForFunction(
      () =>
        document
          .getAnimations()
          .every((animation) => animation.playState !== "running" || animation.effect?.getComputedTiming().iterations === Infinity),
      undefined,
      { timeout: 15_000 },
    );
    const builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
    const results = await (within ? builder.include(within) : builder).analyze();
    const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    const described = blocking.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    expect(described, `accessibility of ${screen}`).toEqual([]);
  } finally {
    await page.emulateMedia({ reducedMotion: null });
  }
}
