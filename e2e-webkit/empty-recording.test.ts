// WebKitGTK 2.50 on Debian 12 says yes to 'video/mp4' and then records 0 bytes of video: the empty take a real
// browser makes. It must be caught at Stop with a plain message and 'Try again', and never be queued or uploaded.
import type { WebDriver } from 'selenium-webdriver';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { seedInterview, storedAnswers } from '../e2e/interview-support';
import { superuser } from '../e2e/support';
import { appUrl, button, click, heading, openBrowser, probeRecorder, seen, text } from './support';

const EMPTY = 'Your browser did not record anything. Try again, or open this link in Chrome, Edge, Firefox or Safari.';

let driver: WebDriver;
beforeEach(async () => {
  driver = await openBrowser();
});
afterEach(async () => {
  await driver?.quit();
});

test("an empty recording (WebKitGTK records 0 bytes) gets the message and 'Try again', and never reaches the server", async () => {
  // five minutes to prepare: after 'Try again' the preparation still runs, so nothing records by itself
  const { candidate, key, questions } = await seedInterview([{ kind: 'video', title: 'Introduce yourself', timeout: 90, takes: 2, preparation: 300 }]);

  // The premise: this WebKit records nothing. When a Debian WebKitGTK records, this test needs another empty take.
  await driver.get(`${appUrl}/api/health`);
  const probe = await probeRecorder(driver, 1000);
  expect(probe.video, 'WebKitGTK now records video: make the empty take another way').toMatchObject({ bytes: 0 });

  await driver.get(`${appUrl}/candidates/${key}/questions/${questions[0]!.id}`);
  await click(driver, button('View question'));
  await seen(driver, text('Take 1 of 2'));
  await click(driver, button('Start recording now'));
  await seen(driver, button('Stop Recording'));
  await driver.sleep(2000);
  await click(driver, button('Stop Recording'));

  await seen(driver, text(EMPTY));
  await seen(driver, button('Try again'));
  // not counted: still the first take, nothing to submit
  expect(await driver.findElements(button('Submit answer'))).toHaveLength(0);
  await click(driver, button('Try again'));
  await seen(driver, text('Take 1 of 2'));
  await seen(driver, button('Start recording now'));

  // Nothing was queued (no upload status) nor sent: no answer, no staged part on the server.
  await driver.sleep(3000);
  expect(await driver.findElements({ css: '[aria-label="Answer uploads"]' } as never)).toHaveLength(0);
  expect(await storedAnswers(candidate.id)).toHaveLength(0);
  const su = await superuser();
  const staged = await su.collection('staged_takes').getFullList({ filter: su.filter('candidate = {:c}', { c: candidate.id }) });
  expect(staged).toHaveLength(0);
  await seen(driver, heading('Introduce yourself'));
});
