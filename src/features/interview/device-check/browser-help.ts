/**
 * Which browser the candidate uses, read from its user agent, and what to do there when the camera or microphone is
 * blocked (issue 17 point 3). Only the steps differ: the candidate is told in the browser's own words where to look.
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

const LABEL: Record<BrowserName, string> = {
  chrome: 'Chrome',
  edge: 'Edge',
  firefox: 'Firefox',
  safari: 'Safari',
  other: 'your browser',
};

export function browserLabel(browser: Browser): string {
  return browser.name === 'other' ? 'your browser' : `${LABEL[browser.name]}${browser.phone ? ' on a phone' : ''}`;
}

/** The steps that unblock the camera and microphone in this browser, each a plain sentence, ending with 'Try again'. */
export function unblockSteps(browser: Browser): string[] {
  const { name, phone } = browser;
  if (phone) {
    switch (name) {
      case 'chrome':
        return [
          'Tap the icon left of the address (a lock or the settings icon), then tap Permissions.',
          'Turn on Camera and Microphone.',
          'If they are off for Chrome itself, allow them in your phone’s Settings, under Apps, Chrome, Permissions.',
          'Then press Try again.',
        ];
      case 'edge':
        return [
          'Tap the lock icon in the address bar, then Permissions.',
          'Allow Camera and Microphone.',
          'If they are off for Edge itself, allow them in your phone’s Settings for Edge.',
          'Then press Try again.',
        ];
      case 'firefox':
        return [
          'Tap the lock icon in the address bar, then Edit site permissions.',
          'Allow Camera and Microphone.',
          'If they are off for Firefox itself, allow them in your phone’s Settings for Firefox.',
          'Then press Try again.',
        ];
      case 'safari':
        return [
          'Tap the aA icon in the address bar, then Website Settings.',
          'Set Camera and Microphone to Allow.',
          'If that does not help, open the Settings app, then Safari, Camera and Microphone, and choose Ask or Allow.',
          'Then press Try again.',
        ];
      default:
        return [
          'Open your browser’s settings for this site and allow the camera and the microphone.',
          'Also check that your phone’s settings let this browser use them.',
          'Then press Try again.',
        ];
    }
  }
  switch (name) {
    case 'chrome':
      return [
        'Click the camera icon in the address bar (or the icon left of the address), choose Allow, then press Try again.',
        'If there is no such icon, open Chrome’s menu, Settings, Privacy and security, Site settings, and allow Camera and Microphone for this site.',
      ];
    case 'edge':
      return [
        'Click the camera icon in the address bar (or the lock left of the address), set Camera and Microphone to Allow, then press Try again.',
        'If there is no such icon, open Edge’s menu, Settings, Cookies and site permissions, and allow Camera and Microphone for this site.',
      ];
    case 'firefox':
      return [
        'Click the crossed-out camera icon in the address bar and remove the block (Blocked Temporarily or Blocked), then press Try again and choose Allow.',
        'If there is no such icon, click the lock left of the address, then Connection secure, More information, Permissions, and allow Use the camera and Use the microphone.',
      ];
    case 'safari':
      return [
        'Open Safari’s menu, Settings for This Website, set Camera and Microphone to Allow, then press Try again.',
        'If your Mac still blocks them, open System Settings, Privacy & Security, Camera (and Microphone), and turn Safari on.',
      ];
    default:
      return [
        'Click the camera or lock icon in your browser’s address bar, choose Allow for the camera and the microphone, then press Try again.',
      ];
  }
}
