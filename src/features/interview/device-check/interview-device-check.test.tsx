import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { env } from '@/config/env';
import { FakeAudioContext, fakeStream, FakeRecorder, installFakeMedia, setUserAgent, USER_AGENTS, WEBM_HEADER_NO_AUDIO } from '@/testing/fake-media';
import { server } from '@/testing/msw-server';
import { renderWithProviders } from '@/testing/render-route';

import de from '../i18n/messages/de.json';
import en from '../i18n/messages/en.json';
import { english } from '../i18n/testing';

import { detectBrowser, otherBrowsers, unblockSteps } from './browser-help';
import { InterviewDeviceCheck } from './interview-device-check';

const WORKS = 'Recording: works. Your answers will be recorded as WebM (VP9, OPUS).';
const RECORDED_NOTHING = 'Recording: This browser recorded nothing, even on a second try, so it cannot record your answers here.';
const GOOD_CONNECTION = 'Connection: Your connection is good';

let getUserMedia: ReturnType<typeof installFakeMedia>['getUserMedia'];

beforeEach(() => {
  ({ getUserMedia } = installFakeMedia());
  setUserAgent(USER_AGENTS.chrome);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The connection check's route (`down`: unreachable); `posts` counts the uploads it received. */
function connectionRoute({ down = false }: { down?: boolean } = {}) {
  const route = { posts: 0, down };
  server.use(
    http.post(`${env.apiUrl}/api/screenroom/interviews/:key/connection-check`, async ({ request, params }) => {
      await request.arrayBuffer();
      route.posts += 1;
      if (route.down || request.headers.get('X-Candidate-Key') !== params.key) return HttpResponse.error();
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return route;
}

/**
 * The check in the candidate's language (English unless said), as the candidate layout provides it; a message
 * missing from the catalog fails the test rather than showing its key.
 */
function renderCheck({ locale = 'en', messages = en }: { locale?: string; messages?: typeof en } = {}) {
  const onContinue = vi.fn();
  const view = renderWithProviders(
    <IntlProvider
      locale={locale}
      messages={messages}
      onError={(error) => {
        throw error;
      }}
    >
      <InterviewDeviceCheck candidateKey="cand1" onContinue={onContinue} />
    </IntlProvider>,
  );
  return { ...view, onContinue };
}

/** Every alert the page showed, however briefly (an alert that came and went is still a false alarm). */
function watchAlerts() {
  const seen = new Set<string>();
  const look = () => document.querySelectorAll('[role="alert"]').forEach((element) => seen.add(element.textContent ?? ''));
  const observer = new MutationObserver(look);
  observer.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
  return {
    seen: () => {
      look();
      return [...seen];
    },
    stop: () => observer.disconnect(),
  };
}

/** A clock the test moves: the page's timers run only as `until` moves it (reads of a take's bytes run as usual). */
function useTestClock() {
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
}

/** Moves the test clock on, 500 ms at a time (up to two minutes of it), until `find` finds what it looks for. */
async function until<T>(find: () => T): Promise<T> {
  for (let ms = 0; ms < 120_000; ms += 500) {
    try {
      return find();
    } catch {
      await act(() => vi.advanceTimersByTimeAsync(500));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return find();
}

/** The list item of a check's line, found by its text. */
function lineOf(text: string | RegExp): HTMLElement {
  return screen.getByText(text).closest('li')!;
}

describe('the device check', () => {
  it('all good: the camera, a microphone heard, the recording format and a good connection; no alarm; Continue goes on', async () => {
    const route = connectionRoute();
    const alerts = watchAlerts();
    const { onContinue } = renderCheck();
    expect(await screen.findByRole('heading', { name: 'Check your camera and microphone' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Camera preview')).toBeInTheDocument();
    expect(screen.getByText('Camera: we see you')).toBeInTheDocument();
    expect(await screen.findByText('Microphone: we hear you')).toBeInTheDocument();
    const meter = screen.getByRole('meter', { name: 'Microphone level' });
    expect(Number(meter.getAttribute('aria-valuenow'))).toBeGreaterThan(5);
    expect(await screen.findByText(WORKS)).toBeInTheDocument();
    expect(await screen.findByText(GOOD_CONNECTION)).toBeInTheDocument();
    // a good rate: one upload was enough
    expect(route.posts).toBe(1);
    expect(alerts.seen()).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(onContinue).toHaveBeenCalledTimes(1);
    alerts.stop();
  });

  it('says so when the microphone is silent, without blocking, and its Try again listens afresh', async () => {
    FakeAudioContext.loudness = 0;
    connectionRoute();
    renderCheck();
    const silent = 'Microphone: we hear nothing yet — speak or check it is not muted';
    expect(await screen.findByText(silent)).toBeInTheDocument();
    expect(screen.getByRole('meter', { name: 'Microphone level' })).toHaveAttribute('aria-valuenow', '0');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();

    const listening = FakeAudioContext.made;
    // still silent while clicking: a sound made before would let the old meter hear it first, and the line (with
    // its button) would be gone before the click lands
    await userEvent.click(within(lineOf(silent)).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(FakeAudioContext.made).toBe(listening + 1));
    FakeAudioContext.loudness = 0.3;
    expect(await screen.findByText('Microphone: we hear you')).toBeInTheDocument();
    // the microphone is listened to again; nothing else is opened or checked again
    expect(getUserMedia).toHaveBeenCalledTimes(1);
  });

  it('passes with a recorder whose start event comes 4 s after it was made', async () => {
    useTestClock();
    FakeRecorder.behaviours = [{ startDelayMs: 4000 }];
    connectionRoute();
    const alerts = watchAlerts();
    renderCheck();
    await until(() => screen.getByText(WORKS));
    expect(FakeRecorder.made).toHaveLength(1);
    const [recorder] = FakeRecorder.made;
    expect(recorder!.stoppedAt! - recorder!.startedAt!).toBeGreaterThanOrEqual(1200);
    expect(alerts.seen()).toEqual([]);
    alerts.stop();
  });

  it('records again by itself when the first take is empty, and passes without any alarm shown', async () => {
    useTestClock();
    FakeRecorder.behaviours = [{ data: false }, {}];
    connectionRoute();
    const alerts = watchAlerts();
    renderCheck();
    await until(() => screen.getByText(WORKS));
    expect(FakeRecorder.made).toHaveLength(2);
    expect(alerts.seen()).toEqual([]);
    alerts.stop();
  });

  it('alarms when both takes are empty, names a browser on another engine, and its Try again runs only the recording', async () => {
    useTestClock();
    FakeRecorder.behaviours = [{ data: false }, { data: false }];
    const route = connectionRoute();
    renderCheck();
    const alert = await until(() => screen.getByRole('alert'));
    // a Chrome user is never sent to Chrome, nor to Edge (Chrome's engine)
    expect(alert).toHaveTextContent(`${RECORDED_NOTHING} Open this link in Firefox.`);
    expect(alert).not.toHaveTextContent(/Chrome|Edge/);
    // Safari only on Apple's devices
    expect(alert).not.toHaveTextContent('Safari');
    await until(() => screen.getByText(GOOD_CONNECTION));
    const posts = route.posts;

    await userEvent.click(within(lineOf(RECORDED_NOTHING + ' Open this link in Firefox.')).getByRole('button', { name: 'Try again' }));
    await until(() => screen.getByText(WORKS));
    expect(FakeRecorder.made).toHaveLength(3);
    expect(getUserMedia).toHaveBeenCalledTimes(1);
    expect(route.posts).toBe(posts);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('alarms when the recorder never starts, naming no other browser', async () => {
    useTestClock();
    FakeRecorder.behaviours = [{ startDelayMs: null }, { startDelayMs: null }];
    connectionRoute();
    renderCheck();
    const alert = await until(() => screen.getByRole('alert'));
    expect(alert).toHaveTextContent(
      'Recording: Your browser did not start recording. Close other apps that may be using your camera, then press Try again.',
    );
    expect(within(alert.closest('li')!).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('alarms on a recording with no sound after its second take', async () => {
    useTestClock();
    FakeRecorder.behaviours = [{ header: WEBM_HEADER_NO_AUDIO }, { header: WEBM_HEADER_NO_AUDIO }];
    connectionRoute();
    renderCheck();
    const alert = await until(() => screen.getByRole('alert'));
    expect(alert).toHaveTextContent('Recording: Your recording has no sound.');
    expect(FakeRecorder.made).toHaveLength(2);
  });

  it('alarms for a stream without a video track, blocks Continue, and its Try again opens the camera again', async () => {
    getUserMedia.mockImplementationOnce(() => Promise.resolve(fakeStream({ video: false })));
    const route = connectionRoute();
    renderCheck();
    const noPicture =
      'Camera: We get no picture from your camera. Check that it is connected, switched on and not used by another app, then press Try again.';
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(noPicture);
    expect(screen.queryByLabelText('Camera preview')).not.toBeInTheDocument();
    expect(screen.getByText('Recording: checked once your camera gives a picture')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();
    expect(FakeRecorder.made).toHaveLength(0);
    await screen.findByText(GOOD_CONNECTION);

    await userEvent.click(within(lineOf(noPicture)).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Camera: we see you')).toBeInTheDocument();
    expect(await screen.findByText(WORKS)).toBeInTheDocument();
    expect(getUserMedia).toHaveBeenCalledTimes(2);
    expect(route.posts).toBe(1);
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
  });

  it('alarms for a stream without a microphone; its Try again asks for the microphone alone', async () => {
    getUserMedia.mockImplementationOnce(() => Promise.resolve(fakeStream({ audio: false })));
    connectionRoute();
    renderCheck();
    const none =
      'Microphone: We get no sound from your microphone. Check that it is connected and allowed for this page, then press Try again.';
    expect(await screen.findByText(none)).toHaveAttribute('role', 'alert');
    await screen.findByText(WORKS);
    const recorders = FakeRecorder.made.length;

    await userEvent.click(within(lineOf(none)).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Microphone: we hear you')).toBeInTheDocument();
    expect(getUserMedia).toHaveBeenCalledTimes(2);
    expect(Object.keys(getUserMedia.mock.calls[1]![0])).toEqual(['audio']);
    // the camera stays, and the recording is not checked again
    expect(screen.getByText('Camera: we see you')).toBeInTheDocument();
    expect(FakeRecorder.made).toHaveLength(recorders);
  });

  it('says the connection is slow below what an answer needs, without blocking; its Try again runs only the upload check', async () => {
    const route = connectionRoute();
    // every reading of the clock 10 s after the last: 1000 KB in 10 s is about 100 KB/s, under the 197.5 KB/s needed
    let clock = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 10_000));
    renderCheck();
    const slow = 'Connection: Your connection is slow: answers will take longer to send, keep this page open';
    expect(await screen.findByText(slow)).toHaveAttribute('role', 'status');
    // the better of two uploads decides
    expect(route.posts).toBe(2);
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
    await screen.findByText(WORKS);
    const recorders = FakeRecorder.made.length;

    now.mockRestore();
    await userEvent.click(within(lineOf(slow)).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(GOOD_CONNECTION)).toBeInTheDocument();
    expect(route.posts).toBe(3);
    expect(FakeRecorder.made).toHaveLength(recorders);
    expect(getUserMedia).toHaveBeenCalledTimes(1);
  });

  it('reports a server it could not reach, and checks again', async () => {
    const route = connectionRoute({ down: true });
    renderCheck();
    const failed = 'Connection: We could not reach the server';
    expect(await screen.findByText(failed)).toHaveAttribute('role', 'alert');
    route.down = false;
    await userEvent.click(within(lineOf(failed)).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(GOOD_CONNECTION)).toBeInTheDocument();
  });

  it.each([
    ['Chrome', USER_AGENTS.chrome, 'Firefox'],
    ['Firefox', USER_AGENTS.firefox, 'Chrome or Edge'],
    ['Safari on a Mac', USER_AGENTS.safariMac, 'Chrome, Edge, or Firefox'],
    ['Edge on Windows', USER_AGENTS.edge, 'Firefox'],
  ])('without MediaRecorder, %s says in one plain line that it cannot record, naming the browsers that can', async (_, ua, others) => {
    setUserAgent(ua);
    vi.stubGlobal('MediaRecorder', undefined);
    connectionRoute();
    renderCheck();
    const line = `Recording: This browser cannot record video. Open this link in ${others}.`;
    expect(await screen.findByText(line)).toHaveAttribute('role', 'alert');
    // the camera and microphone still work, and say so; nothing else alarms
    expect(screen.getByLabelText('Camera preview')).toBeInTheDocument();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    // trying again cannot give this browser a recorder
    expect(within(lineOf(line)).queryByRole('button')).not.toBeInTheDocument();
  });

  it('with no type it records, says so too; on an iPhone it asks for another device', async () => {
    setUserAgent(USER_AGENTS.safariIphone);
    FakeRecorder.supported = () => false;
    connectionRoute();
    renderCheck();
    expect(
      await screen.findByText(
        'Recording: This browser cannot record video. Open this link on a computer, or on a phone with a recent browser.',
      ),
    ).toBeInTheDocument();
    expect(FakeRecorder.made).toHaveLength(0);
  });

  it.each([
    ['Chrome', USER_AGENTS.chrome, 'The video questions need both. To allow them in Chrome:', 'Click the camera icon in the address bar (or the icon left of the address), choose Allow, then press Try again.'],
    ['Firefox', USER_AGENTS.firefox, 'The video questions need both. To allow them in Firefox:', 'Click the crossed-out camera icon in the address bar'],
    ['Safari on a phone', USER_AGENTS.safariIphone, 'The video questions need both. To allow them in Safari on a phone:', 'Tap the aA icon in the address bar, then Website Settings.'],
    ['Edge', USER_AGENTS.edge, 'The video questions need both. To allow them in Edge:', 'Click the camera icon in the address bar (or the lock left of the address)'],
  ])('a blocked camera gets the steps for %s, and Try again asks again once allowed', async (_, ua, intro, step) => {
    setUserAgent(ua);
    getUserMedia.mockImplementation(() => Promise.reject(new DOMException('refused', 'NotAllowedError')));
    connectionRoute();
    renderCheck();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Your browser blocks the camera and microphone for this page')).toBeInTheDocument();
    expect(within(alert).getByText(intro)).toBeInTheDocument();
    expect(within(alert).getByText((text) => text.startsWith(step))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();

    getUserMedia.mockImplementation(() => Promise.resolve(fakeStream()));
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Camera preview')).toBeInTheDocument();
    expect(getUserMedia).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
  });

  it('tells a candidate with no camera before the first question', async () => {
    getUserMedia.mockImplementation(() => Promise.reject(new DOMException('none', 'NotFoundError')));
    connectionRoute();
    renderCheck();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('We could not find a camera or microphone')).toBeInTheDocument();
    expect(within(alert).getByText(/this device has none we can use/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();
  });

  it('speaks the candidate’s language: German, with the browsers listed the German way', async () => {
    setUserAgent(USER_AGENTS.firefox);
    vi.stubGlobal('MediaRecorder', undefined);
    connectionRoute();
    renderCheck({ locale: 'de', messages: de });
    expect(await screen.findByRole('heading', { name: 'Prüfen Sie Ihre Kamera und Ihr Mikrofon' })).toBeInTheDocument();
    expect(await screen.findByText('Kamera: Wir sehen Sie')).toBeInTheDocument();
    expect(
      await screen.findByText('Aufnahme: Dieser Browser kann kein Video aufnehmen. Öffnen Sie diesen Link in Chrome oder Edge.'),
    ).toBeInTheDocument();
    expect(await screen.findByText('Verbindung: Ihre Verbindung ist gut')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Weiter' })).toBeEnabled();
  });
});

describe('the browser detection', () => {
  it.each([
    [USER_AGENTS.chrome, { name: 'chrome', phone: false }],
    [USER_AGENTS.edge, { name: 'edge', phone: false }],
    [USER_AGENTS.firefox, { name: 'firefox', phone: false }],
    [USER_AGENTS.safariIphone, { name: 'safari', phone: true }],
    [USER_AGENTS.chromeAndroid, { name: 'chrome', phone: true }],
    [USER_AGENTS.safariMac, { name: 'safari', phone: false }],
  ])('reads %s', (ua, expected) => {
    expect(detectBrowser(ua)).toEqual(expected);
  });

  it.each([
    ['Chrome', USER_AGENTS.chrome, ['Firefox']],
    ['Chrome on Android', USER_AGENTS.chromeAndroid, ['Firefox']],
    ['Edge', USER_AGENTS.edge, ['Firefox']],
    ['Firefox', USER_AGENTS.firefox, ['Chrome', 'Edge']],
    ['Safari on a Mac', USER_AGENTS.safariMac, ['Chrome', 'Edge', 'Firefox']],
    ['WebKitGTK', USER_AGENTS.webkitGtk, ['Chrome', 'Edge', 'Firefox']],
    ['an iPhone', USER_AGENTS.safariIphone, []],
  ])('names to a candidate in %s only browsers on another engine that run there', (_, ua, expected) => {
    expect(otherBrowsers(ua)).toEqual(expected);
  });

  it('ends every browser’s steps with Try again, each step a message of the catalog', () => {
    for (const name of ['chrome', 'edge', 'firefox', 'safari', 'other'] as const) {
      for (const phone of [false, true]) {
        const steps = unblockSteps({ name, phone }).map((id) => english(id));
        expect(steps.every((step) => step.length > 0)).toBe(true);
        expect(steps.join(' ')).toMatch(/Try again/);
      }
    }
  });
});
