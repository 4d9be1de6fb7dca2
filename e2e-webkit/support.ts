// WebKitGTK through WebKitWebDriver with selenium-webdriver: a MiniBrowser session with the mock camera and
// microphone, and waits for what a candidate sees, found by its text (WebDriver has no role queries).
import { Builder, By, until, type WebDriver, type WebElement } from 'selenium-webdriver';
import { E2E } from '../scripts/lib/e2e-ports.mjs';
import { MINIBROWSER } from '../scripts/lib/webkit.mjs';

export const appUrl = E2E.appUrl;
const driverUrl = `http://127.0.0.1:${process.env.WEBKIT_DRIVER_PORT}`;
/** The bound of a wait for what a user sees, as in the Chromium suite (playwright.config.ts). */
export const SEEN_MS = 20_000;

export const capabilities = {
  browserName: 'MiniBrowser',
  'webkitgtk:browserOptions': {
    binary: MINIBROWSER,
    // --automation: the driver's control channel; mock capture devices: a camera ("Mock video device 1") and a
    // microphone the page gets without a prompt
    args: ['--automation', '--enable-mock-capture-devices=true', '--enable-media-stream=true'],
  },
};

/**
 * A new MiniBrowser (one a test). WebKitWebDriver waits forever for a browser that failed to start (a bad argument
 * makes MiniBrowser exit): the session gets 30 s.
 */
export async function openBrowser(): Promise<WebDriver> {
  const session = new Builder().usingServer(driverUrl).withCapabilities(capabilities).build();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no WebKitGTK session from ${driverUrl} within 30 s`)), 30_000);
  });
  try {
    const driver = await Promise.race([session, timeout]);
    await driver.manage().setTimeouts({ script: 30_000 });
    return driver;
  } finally {
    clearTimeout(timer);
  }
}

const literal = (text: string) => (text.includes("'") ? `"${text}"` : `'${text}'`);

export const button = (name: string) => By.xpath(`//button[normalize-space(.)=${literal(name)}]`);
export const link = (name: string) => By.xpath(`//a[normalize-space(.)=${literal(name)}]`);
export const heading = (name: string) =>
  By.xpath(`//*[self::h1 or self::h2 or self::h3 or self::h4][normalize-space(.)=${literal(name)}]`);
export const text = (value: string) => By.xpath(`//*[contains(normalize-space(.), ${literal(value)}) and not(*[contains(normalize-space(.), ${literal(value)})])]`);
/** A field by its <label>'s text. */
export const labelled = (name: string) => By.xpath(`//*[@id=//label[normalize-space(.)=${literal(name)}]/@for]`);

/** The element, once it is there and shown. */
export async function seen(driver: WebDriver, locator: By, ms = SEEN_MS): Promise<WebElement> {
  const element = await driver.wait(until.elementLocated(locator), ms, `not found: ${locator.toString()}`);
  await driver.wait(until.elementIsVisible(element), ms, `not visible: ${locator.toString()}`);
  return element;
}

/**
 * Clicks the element `locator` finds once it is visible and enabled. Found again on each try: a re-render may
 * replace the element between two looks.
 */
export async function click(driver: WebDriver, locator: By) {
  const element = await driver.wait<WebElement | null>(
    async () => {
      try {
        const found = await driver.findElement(locator);
        return (await found.isDisplayed()) && (await found.isEnabled()) ? found : null;
      } catch (error) {
        if (error instanceof Error && (error.name === 'NoSuchElementError' || error.name === 'StaleElementReferenceError')) return null;
        throw error;
      }
    },
    SEEN_MS,
    `not visible and enabled: ${locator.toString()}`,
  );
  await element!.click();
}

export async function waitForUrl(driver: WebDriver, pattern: RegExp, ms = SEEN_MS) {
  await driver.wait(async () => pattern.test(await driver.getCurrentUrl()), ms, `URL never matched ${pattern}`);
}

/** Runs `body` (the text of an async function's body) in the page and returns what it returns. */
export async function inPage<T>(driver: WebDriver, body: string): Promise<T> {
  return driver.executeAsyncScript<T>(
    `const done = arguments[arguments.length - 1];
     (async () => { ${body} })().then(done, (e) => done({ error: String(e) }));`,
  );
}

export const RECORDER_TYPES = [
  'video/webm',
  'video/webm;codecs=vp8,opus',
  'video/webm;codecs=vp9,opus',
  'video/mp4',
  'video/mp4;codecs=avc1,mp4a',
  'video/mp4;codecs=avc1.42E01E,mp4a.40.2',
  'audio/mp4',
];

/**
 * What WebKit's MediaRecorder says and does on this machine: isTypeSupported for each type, and the bytes one
 * recorder delivers in `ms` from the mock camera and microphone (video and audio), and from the microphone alone.
 */
export async function probeRecorder(driver: WebDriver, ms = 1500) {
  return inPage<{
    supported: Record<string, boolean>;
    video: { mimeType: string; bytes: number } | string;
    audio: { mimeType: string; bytes: number } | string;
  }>(
    driver,
    `const supported = Object.fromEntries(${JSON.stringify(RECORDER_TYPES)}.map((t) => [t, MediaRecorder.isTypeSupported(t)]));
     async function record(constraints) {
       try {
         const stream = await navigator.mediaDevices.getUserMedia(constraints);
         const recorder = new MediaRecorder(stream);
         let bytes = 0;
         recorder.ondataavailable = (e) => { bytes += e.data.size; };
         const stopped = new Promise((r) => { recorder.onstop = r; });
         recorder.start(500);
         await new Promise((r) => setTimeout(r, ${ms}));
         recorder.stop();
         await stopped;
         stream.getTracks().forEach((t) => t.stop());
         return { mimeType: recorder.mimeType, bytes };
       } catch (e) { return String(e); }
     }
     return { supported, video: await record({ video: true, audio: true }), audio: await record({ audio: true }) };`,
  );
}
