// Helpers for the questions-and-jobs journey: filling the question form, reading a job's question list,
// dragging with a real pointer and moving with the keyboard.
import { expect, type Locator, type Page } from "@playwright/test";

export type QuestionFields = { title: string; description: string; timeout?: number; kind: "video" | "text"; takes?: number };

/** Fills the question form inside `scope` (the page or the 'Create new question' dialog). */
export async function fillQuestionForm(scope: Page | Locator, fields: QuestionFields) {
  await scope.getByLabel("Title", { exact: true }).fill(fields.title);
  await scope.getByLabel("Description", { exact: true }).fill(fields.description);
  if (fields.timeout !== undefined) await scope.getByLabel("Timeout (seconds)").fill(String(fields.timeout));
  await scope.getByRole("radio", { name: fields.kind === "video" ? "Video" : "Text" }).check();
  if (fields.kind === "video" && fields.takes !== undefined) await scope.getByLabel("Takes").fill(String(fields.takes));
}

/** The titles of the job form's question list, top to bottom. */
export async function listedTitles(page: Page): Promise<string[]> {
  return page
    .getByRole("list", { name: "Questions of this job" })
    .getByRole("button", { name: /^Move / })
    .evaluateAll((handles) => handles.map((handle) => (handle.getAttribute("aria-label") ?? "").replace(/^Move /, "")));
}

/** Drags the handle of `title` onto the centre of `target`'s item with a real mouse, in small steps. */
export async function dragOnto(page: Page, title: string, target: string) {
  const handle = page.getByRole("button", { name: `Move ${title}`, exact: true });
  const list = page.getByRole("list", { name: "Questions of this job" });
  const to = list.getByRole("listitem").filter({ hasText: target });
  // Centred in the viewport, so the pointer stays clear of the edges where dnd-kit starts auto-scrolling.
  await list.evaluate((element) => element.scrollIntoView({ block: "center" }));
  const from = (await handle.boundingBox())!;
  const dest = (await to.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  // Past the 5 px activation distance first, then on to the target's centre.
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 10, { steps: 3 });
  await page.mouse.move(from.x + from.width / 2, dest.y + dest.height / 2, { steps: 15 });
  await expect(page.locator('[id^="DndLiveRegion"]')).toContainText(`Question "${title}" is over question "${target}"`);
  await page.mouse.up();
}

/**
 * Picks `title` up with the keyboard, presses the arrow (at most `maxPresses` times) until dnd-kit announces it over
 * `target` (as a screen-reader user would hear before dropping) and drops it there.
 */
export async function keyboardMove(
  page: Page,
  title: string,
  key: "ArrowUp" | "ArrowDown",
  maxPresses: number,
  target: string,
) {
  const liveRegion = page.locator('[id^="DndLiveRegion"]');
  const handle = page.getByRole("button", { name: `Move ${title}`, exact: true });
  // dnd-kit's keyboard sensor scrolls the window (smoothly) instead of moving the item once the item passes the
  // viewport's middle: keep the list low in the viewport so every press moves the item itself by 25 px.
  const block: ScrollLogicalPosition = key === "ArrowUp" ? "end" : "start";
  const list = page.getByRole("list", { name: "Questions of this job" });
  await list.evaluate((element, at) => element.scrollIntoView({ block: at }), block);
  await handle.focus();
  await page.keyboard.press("Space");
  await expect(liveRegion).toContainText(`Picked up question "${title}"`);
  // As a screen-reader user does: press the arrow until dnd-kit announces the item is over the target (each press
  // moves it 25 px, which the unit tests pin down; here the announcement is what counts, not the pixels).
  // Each press is awaited by its effect (the item moved, then two frames for dnd-kit's announcement to render),
  // never by a time a busy machine can outrun.
  const over = `is over question "${target}"`;
  for (let press = 1; ; press += 1) {
    const before = (await handle.boundingBox())!.y;
    await page.keyboard.press(key);
    await expect.poll(async () => (await handle.boundingBox())!.y, { message: `press ${press} of ${key} moved "${title}"` }).not.toBe(before);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    if ((await liveRegion.textContent())?.includes(over)) break;
    if (press >= maxPresses) await expect(liveRegion, `after ${press} presses`).toContainText(over);
  }
  await page.keyboard.press("Space");
}
