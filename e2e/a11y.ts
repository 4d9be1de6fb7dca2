// Accessibility audits inside the journeys (issue 8): axe-core over the screen as a user sees it.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * Fails on serious or critical WCAG A/AA violations of the current screen, naming each one. `within`: a CSS selector
 * to audit only that part, e.g. an open modal dialog, since the page behind its overlay is dimmed and inert (axe
 * would measure the dimmed text's contrast).
 */
export async function expectAccessible(page: Page, screen: string, within?: string) {
  const builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  const results = await (within ? builder.include(within) : builder).analyze();
  const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const described = blocking.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(described, `accessibility of ${screen}`).toEqual([]);
}
