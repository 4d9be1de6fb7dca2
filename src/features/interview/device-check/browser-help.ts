/**
 * Which browser the candidate uses, read from its user agent: what to do there when the camera or microphone is
 * blocked (the steps, in the browser's own words, as message ids of the candidate's catalog), and which other
 * browsers to name when this one cannot record.
 */

export type BrowserName = 'chrome' | 'edge' | 'firefox' | 'safari' | 'other';
export type Browser = { name: BrowserName; phone: boolean };

/** Edge and Chrome on iOS are Safari underneath but keep their own menus (EdgiOS, CriOS, FxiOS). */
export function detectBrowser(userAgent: string): Browser {
  const ua = userAgent;
  const phone = /Android|iPhone|iPad|iPod|Mobile/i.test(ua);
  let name: BrowserName = 'other';
  if (/Edg(e|A|iOS)?\//.test(ua)) name = 'edge';
  else if (/Firefox\/|FxiOS\//.test(ua)) name = 'firefox';
  else if (/CriOS\/|Chrome\/|Chromium\//.test(ua)) name = 'chrome';
  else if (/Safari\//.test(ua) && /Version\//.test(ua)) name = 'safari';
  return { name, phone };
}

/** The browser's own name, as the steps' introduction names it (a name, never translated). */
export const BROWSER_NAMES: Record<Exclude<BrowserName, 'other'>, string> = {
  chrome: 'Chrome',
  edge: 'Edge',
  firefox: 'Firefox',
  safari: 'Safari',
};

/** The engine underneath: a browser that cannot record sends the candidate to another engine, not a sibling. */
const ENGINE: Record<Exclude<BrowserName, 'other'>, 'chromium' | 'gecko' | 'webkit'> = {
  chrome: 'chromium',
  edge: 'chromium',
  firefox: 'gecko',
  safari: 'webkit',
};

/**
 * The browsers to name when this one cannot record: those on another engine than this one's (never Chrome to a
 * Chrome user, nor Edge, which is Chrome's engine), and Safari only on Apple's devices, the only ones it runs on.
 * Empty on an iPhone or iPad, where every browser is Safari's engine: the candidate needs another device.
 */
export function otherBrowsers(userAgent: string): string[] {
  if (/iPhone|iPad|iPod/.test(userAgent)) return [];
  const { name } = detectBrowser(userAgent);
  const apple = /Macintosh|Mac OS X/.test(userAgent);
  const engine = name === 'other' ? null : ENGINE[name];
  return (Object.keys(BROWSER_NAMES) as Exclude<BrowserName, 'other'>[])
    .filter((other) => ENGINE[other] !== engine && (other !== 'safari' || apple))
    .map((other) => BROWSER_NAMES[other]);
}

/** The steps that unblock the camera and microphone in this browser, each a plain sentence, ending with 'Try again'. */
const PHONE_STEPS = {
  chrome: [
    'deviceCheck.steps.phone.chrome.1',
    'deviceCheck.steps.phone.chrome.2',
    'deviceCheck.steps.phone.chrome.3',
    'deviceCheck.steps.phone.tryAgain',
  ],
  edge: [
    'deviceCheck.steps.phone.edge.1',
    'deviceCheck.steps.phone.edge.2',
    'deviceCheck.steps.phone.edge.3',
    'deviceCheck.steps.phone.tryAgain',
  ],
  firefox: [
    'deviceCheck.steps.phone.firefox.1',
    'deviceCheck.steps.phone.firefox.2',
    'deviceCheck.steps.phone.firefox.3',
    'deviceCheck.steps.phone.tryAgain',
  ],
  safari: [
    'deviceCheck.steps.phone.safari.1',
    'deviceCheck.steps.phone.safari.2',
    'deviceCheck.steps.phone.safari.3',
    'deviceCheck.steps.phone.tryAgain',
  ],
  other: ['deviceCheck.steps.phone.other.1', 'deviceCheck.steps.phone.other.2', 'deviceCheck.steps.phone.tryAgain'],
} as const;

const DESKTOP_STEPS = {
  chrome: ['deviceCheck.steps.desktop.chrome.1', 'deviceCheck.steps.desktop.chrome.2'],
  edge: ['deviceCheck.steps.desktop.edge.1', 'deviceCheck.steps.desktop.edge.2'],
  firefox: ['deviceCheck.steps.desktop.firefox.1', 'deviceCheck.steps.desktop.firefox.2'],
  safari: ['deviceCheck.steps.desktop.safari.1', 'deviceCheck.steps.desktop.safari.2'],
  other: ['deviceCheck.steps.desktop.other.1'],
} as const;

export type StepId = (typeof PHONE_STEPS)[BrowserName][number] | (typeof DESKTOP_STEPS)[BrowserName][number];

export function unblockSteps(browser: Browser): readonly StepId[] {
  return (browser.phone ? PHONE_STEPS : DESKTOP_STEPS)[browser.name];
}
