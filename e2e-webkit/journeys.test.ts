// The candidate journeys in WebKitGTK 2.50 (Safari's engine): start, the intro card, a text answer stored on the
// server, the finish screen, and the camera preview from WebKit's mock camera on a video question. What WebKit's
// MediaRecorder offers is printed: on Debian 12 it records nothing of a video (README, "Supported browsers"), so the
// recorded formats are proven by generated mp4 fixtures elsewhere, and the empty take by empty-recording.test.ts.
import type { WebDriver } from 'selenium-webdriver';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { kindOf, seedInterview, waitForAnswers } from '../e2e/interview-support';
import { appUrl, button, click, heading, inPage, labelled, openBrowser, probeRecorder, seen, text, waitForUrl } from './support';

let driver: WebDriver;
beforeEach(async () => {
  driver = await openBrowser();
});
afterEach(async () => {
  await driver?.quit();
});

test('a candidate starts, reads the intro card, answers a text question and sees the finish screen', async () => {
  const { candidate, key, questions } = await seedInterview([{ kind: 'text', title: 'Why this job', timeout: 90 }], { consent: false });

  await driver.get(`${appUrl}/candidates/${key}`);
  await seen(driver, heading('Interview at Globex Hiring'));
  await click(driver, labelled('I agree'));
  await click(driver, button('Start Interview'));

  // The intro card: how and how long to answer, the question's title (it may be previewed), then 'View question'.
  await waitForUrl(driver, new RegExp(`/candidates/${key}/questions/${questions[0]!.id}$`));
  await seen(driver, text("You'll type your answer"));
  await seen(driver, text('The time runs from when you view the question'));
  await seen(driver, heading('Why this job'));
  await click(driver, button('View question'));

  const answer = await seen(driver, labelled('Your answer'));
  await answer.sendKeys('Safari users deserve a good interview too.');
  await seen(driver, text('42 / 1000'));
  await click(driver, button('Submit answer'));

  await seen(driver, heading('Thank you'));
  await seen(driver, text("We'll get back to you soon"));
  const [stored] = await waitForAnswers(candidate.id, 1);
  expect(stored!.question).toBe(questions[0]!.id);
  expect(kindOf(stored!, 'text_answers_via_answer')?.content).toBe('Safari users deserve a good interview too.');
});

test("a video question's answer form shows the camera preview from WebKit's mock camera", async () => {
  // five minutes to prepare: nothing starts recording by itself while the test looks at the form
  const { key, questions } = await seedInterview([{ kind: 'video', title: 'Introduce yourself', timeout: 90, takes: 2, preparation: 300 }]);

  await driver.get(`${appUrl}/candidates/${key}/questions/${questions[0]!.id}`);
  await seen(driver, text("You'll answer on video"));
  await seen(driver, text('to prepare, then'));
  await click(driver, button('View question'));
  await seen(driver, text('Take 1 of 2'));
  await seen(driver, text('Recording starts in'));
  await seen(driver, button('Start recording now'));

  const preview = await seen(driver, { css: 'video[aria-label="Camera preview"]' } as never);
  await driver.wait(
    async () => Number(await driver.executeScript('return arguments[0].videoWidth', preview)) > 0,
    20_000,
    'the camera preview never showed a frame',
  );
  const stream = await driver.executeScript<{ video: string[]; audio: number; width: number; height: number }>(
    `const v = arguments[0];
     const s = v.srcObject;
     return { video: s.getVideoTracks().filter((t) => t.readyState === 'live').map((t) => t.label),
              audio: s.getAudioTracks().filter((t) => t.readyState === 'live').length,
              width: v.videoWidth, height: v.videoHeight };`,
    preview,
  );
  console.log(`WebKitGTK camera preview: ${JSON.stringify(stream)}`);
  expect(stream.video).toEqual(['Mock video device 1']);
  expect(stream.audio).toBe(1);
  expect(stream.width).toBeGreaterThan(0);
});

test("WebKit's MediaRecorder: mp4 yes, webm no (printed with the bytes it delivers)", async () => {
  await driver.get(`${appUrl}/api/health`); // a secure context (loopback) where getUserMedia exists
  const probe = await probeRecorder(driver);
  const ua = await inPage<string>(driver, 'return navigator.userAgent;');
  console.log(`WebKitGTK MediaRecorder (${ua}):\n${JSON.stringify(probe, null, 2)}`);
  // The app records mp4 where webm is refused (src/features/interview/upload/media-recorder.ts): Safari's case.
  expect(probe.supported['video/mp4']).toBe(true);
  expect(probe.supported['video/webm']).toBe(false);
  expect(typeof probe.video === 'object' && probe.video.mimeType).toMatch(/^video\/mp4/);
});
