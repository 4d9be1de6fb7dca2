// The device check in WebKitGTK under CPU load (two busy processes, as the stress run has them). This WebKit records
// nothing on Debian 12 (README, "Supported browsers"): the right result is one plain line that this browser cannot
// record, naming the browsers that can on this machine, and nothing else alarms: the camera, the microphone's meter
// and the connection are fine.
import { spawn, type ChildProcess } from 'node:child_process';
import { By, type WebDriver } from 'selenium-webdriver';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { seedInterview } from '../e2e/interview-support';
import { appUrl, button, heading, inPage, openBrowser, seen, text } from './support';

const CANNOT_RECORD =
  'Recording: This browser recorded nothing, even on a second try, so it cannot record your answers here. Open this link in Chrome, Edge, or Firefox.';

let driver: WebDriver;
let busy: ChildProcess[] = [];
beforeEach(async () => {
  driver = await openBrowser();
  busy = [0, 1].map(() => spawn('yes', [], { stdio: 'ignore' }));
});
afterEach(async () => {
  // by their own ids, never by name
  for (const child of busy) child.kill('SIGKILL');
  busy = [];
  await driver?.quit();
});

test('WebKitGTK, which records nothing here, gets one plain line that it cannot record, with the browsers that can', async () => {
  const { key } = await seedInterview([{ kind: 'video', title: 'Introduce yourself', timeout: 90, takes: 1 }]);
  await driver.get(`${appUrl}/candidates/${key}/check`);
  await seen(driver, heading('Check your camera and microphone'));
  await seen(driver, text('Camera: we see you'));
  // the check's own two takes, each bounded (10 s to start, 8 s for data), under load
  const line = await seen(driver, text(CANNOT_RECORD), 90_000);
  expect(await line.getAttribute('role')).toBe('alert');
  await seen(driver, text('Connection: Your connection is good'), 90_000);

  // one line, and only one: no other alarm on the page
  const alerts = await driver.findElements(By.css('[role="alert"]'));
  expect(await Promise.all(alerts.map((alert) => alert.getText()))).toEqual([CANNOT_RECORD]);
  // the camera works, so the candidate may still go on (the text questions need no recorder)
  expect(await (await driver.findElement(button('Continue'))).isEnabled()).toBe(true);
  const ua = await inPage<string>(driver, 'return navigator.userAgent;');
  console.log(`WebKitGTK device check (${ua}): ${CANNOT_RECORD}`);
});
