import 'fake-indexeddb/auto';

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { env } from '@/config/env';
import { renderRoute } from '@/testing/render-route';
import { server } from '@/testing/msw-server';

import { MIC_HEARD, MIC_SILENT } from '../device-check/interview-device-check';
import { detectBrowser, unblockSteps } from '../device-check/browser-help';

/** What the fake recorder hands over: a WebM header naming a VP8 video and an Opus audio track. */
const RECORDED = `\x1a\x45\xdf\xa3 V_VP8 A_OPUS recorded video`;
let recorded = RECORDED;

class FakeRecorder {
  static isTypeSupported(type: string) {
    return type.startsWith('video/webm');
  }
  state: 'inactive' | 'recording' = 'inactive';
  mimeType = 'video/webm;codecs=vp9,opus';
  ondataavailable: ((event: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  onerror: (() => void) | null = null;
  start() {
    this.state = 'recording';
  }
  stop() {
    this.state = 'inactive';
    this.ondataavailable?.({ data: new Blob([Uint8Array.from(recorded, (c) => c.charCodeAt(0))], { type: 'video/webm' }) });
    this.onstop?.();
  }
}

/** The microphone's samples as the analyser reads them: a loud sine, or silence. */
let loudness = 0.3;
class FakeAudioContext {
  state = 'running';
  createMediaStreamSource() {
    return { connect: vi.fn(), disconnect: vi.fn() };
  }
  createAnalyser() {
    return {
      fftSize: 1024,
      getFloatTimeDomainData(samples: Float32Array) {
        for (let i = 0; i < samples.length; i++) samples[i] = loudness * Math.sin(i / 3);
      },
    };
  }
  resume() {
    return Promise.resolve();
  }
  close() {
    return Promise.resolve();
  }
}

const CHROME_DESKTOP =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const EDGE_DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';

const getUserMedia = vi.fn();
const track = { stop: vi.fn() };
const stream = { getTracks: () => [track], getAudioTracks: () => [track], getVideoTracks: () => [track] };
const refusal = (name: string) => Promise.reject(new DOMException('refused', name));

function setUserAgent(ua: string) {
  Object.defineProperty(navigator, 'userAgent', { configurable: true, get: () => ua });
}

beforeEach(() => {
  recorded = RECORDED;
  loudness = 0.3;
  getUserMedia.mockReset();
  getUserMedia.mockImplementation(() => Promise.resolve(stream));
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  vi.stubGlobal('AudioContext', FakeAudioContext);
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia } });
  setUserAgent(CHROME_DESKTOP);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A job with a video question, the connection check answering as `check` says; records what reached the server. */
function interviewApi({
  check = 'ok',
  questions = [{ kind: 'video' }, { kind: 'text' }],
}: { check?: 'ok' | 'down'; questions?: { kind: string }[] } = {}) {
  const requests: string[] = [];
  server.use(
    http.all(`${env.apiUrl}/*`, ({ request }) => {
      requests.push(`${request.method} ${new URL(request.url).pathname}`);
      return undefined;
    }),
    http.get(`${env.apiUrl}/api/screenroom/interviews/:id`, ({ params }) =>
      HttpResponse.json({
        candidateId: params.id,
        companyName: 'Globex',
        jobTitle: 'Support engineer',
        consentedAt: '2026-01-01 10:00:00.000Z',
        questions: questions.map((q, i) => ({
          id: `q${i + 1}`,
          title: `Question ${i + 1}`,
          description: 'Tell us',
          timeout: 45,
          canPreview: true,
          kind: q.kind,
          takes: 2,
        })),
        answeredQuestionIds: [],
      }),
    ),
    http.post(`${env.apiUrl}/api/screenroom/interviews/:id/connection-check`, async ({ request, params }) => {
      const bytes = (await request.arrayBuffer()).byteLength;
      if (check === 'down' || request.headers.get('X-Candidate-Key') !== params.id || bytes > 1024 * 1024) {
        return HttpResponse.error();
      }
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return { requests };
}

describe('the device check', () => {
  it('comes between Start Interview and the first video question', async () => {
    interviewApi();
    const view = renderRoute('/candidates/cand1');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Interview' }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/candidates/cand1/check'));
  });

  it('is skipped for a job of text questions only', async () => {
    interviewApi({ questions: [{ kind: 'text' }] });
    const view = renderRoute('/candidates/cand1/check');
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/candidates/cand1/questions/q1'));
    expect(getUserMedia).not.toHaveBeenCalled();
  });

  it('all good: the camera, a microphone heard, the recording format and a good connection; Continue goes on', async () => {
    const api = interviewApi();
    const view = renderRoute('/candidates/cand1/check');
    expect(await screen.findByRole('heading', { name: 'Check your camera and microphone' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Camera preview')).toBeInTheDocument();
    expect(await screen.findByText(MIC_HEARD)).toBeInTheDocument();
    const meter = screen.getByRole('meter', { name: 'Microphone level' });
    expect(Number(meter.getAttribute('aria-valuenow'))).toBeGreaterThan(5);
    expect(await screen.findByText('Recording: works. Your answers will be recorded as WebM (VP9, OPUS).')).toBeInTheDocument();
    expect(await screen.findByText('Connection: Your connection is good')).toBeInTheDocument();
    expect(api.requests).toContain('POST /api/screenroom/interviews/cand1/connection-check');

    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/candidates/cand1/questions/q1'));
  });

  it('says so when the microphone is silent, without blocking', async () => {
    loudness = 0;
    interviewApi();
    renderRoute('/candidates/cand1/check');
    expect(await screen.findByText(MIC_SILENT)).toBeInTheDocument();
    expect(screen.getByRole('meter', { name: 'Microphone level' })).toHaveAttribute('aria-valuenow', '0');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
  });

  it('catches a browser that records nothing with the check at Stop', async () => {
    recorded = '';
    interviewApi();
    renderRoute('/candidates/cand1/check');
    expect(
      await screen.findByText(
        'Recording: Your browser did not record anything. Try again, or open this link in Chrome, Edge, Firefox or Safari.',
      ),
    ).toBeInTheDocument();
  });

  it('reports a slow connection, without blocking', async () => {
    interviewApi();
    // every reading of the clock 10 s after the last: 384 KB in 10 s is about 300 kbit/s
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 10_000));
    renderRoute('/candidates/cand1/check');
    expect(
      await screen.findByText('Connection: Your connection is slow: answers will take longer to send, keep this page open'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
  });

  it('reports a server it could not reach, and checks again', async () => {
    interviewApi({ check: 'down' });
    renderRoute('/candidates/cand1/check');
    expect(await screen.findByText('Connection: We could not reach the server')).toBeInTheDocument();
    interviewApi({ check: 'ok' });
    await userEvent.click(screen.getByRole('button', { name: 'Check the connection again' }));
    expect(await screen.findByText('Connection: Your connection is good')).toBeInTheDocument();
  });

  it.each([
    ['Chrome', CHROME_DESKTOP, 'Click the camera icon in the address bar (or the icon left of the address), choose Allow, then press Try again.'],
    ['Firefox', FIREFOX_DESKTOP, 'Click the crossed-out camera icon in the address bar'],
    ['Safari on a phone', SAFARI_IPHONE, 'Tap the aA icon in the address bar, then Website Settings.'],
    ['Edge', EDGE_DESKTOP, 'Click the camera icon in the address bar (or the lock left of the address)'],
  ])('a blocked camera gets the steps for %s, and Try again asks again once allowed', async (label, ua, step) => {
    setUserAgent(ua);
    getUserMedia.mockImplementation(() => refusal('NotAllowedError'));
    interviewApi();
    renderRoute('/candidates/cand1/check');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Your browser blocks the camera and microphone for this page')).toBeInTheDocument();
    expect(within(alert).getByText(`The video questions need both. To allow them in ${label}:`)).toBeInTheDocument();
    expect(within(alert).getByText((text) => text.startsWith(step))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();

    getUserMedia.mockImplementation(() => Promise.resolve(stream));
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Camera preview')).toBeInTheDocument();
    expect(getUserMedia).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
  });

  it('tells a candidate with no camera before the first question', async () => {
    getUserMedia.mockImplementation(() => refusal('NotFoundError'));
    interviewApi();
    renderRoute('/candidates/cand1/check');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('We could not find a camera or microphone')).toBeInTheDocument();
    expect(within(alert).getByText(/this device has none we can use/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();
  });
});

describe('the browser detection', () => {
  it.each([
    [CHROME_DESKTOP, { name: 'chrome', phone: false }],
    [EDGE_DESKTOP, { name: 'edge', phone: false }],
    [FIREFOX_DESKTOP, { name: 'firefox', phone: false }],
    [SAFARI_IPHONE, { name: 'safari', phone: true }],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      { name: 'chrome', phone: true },
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      { name: 'safari', phone: false },
    ],
  ])('reads %s', (ua, expected) => {
    expect(detectBrowser(ua)).toEqual(expected);
  });

  it('ends every browser’s steps with Try again', () => {
    for (const name of ['chrome', 'edge', 'firefox', 'safari', 'other'] as const) {
      for (const phone of [false, true]) {
        expect(unblockSteps({ name, phone }).join(' ')).toMatch(/Try again/);
      }
    }
  });
});
