import 'fake-indexeddb/auto';

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { env } from '@/config/env';
import { clickWhenEnabled } from '@/testing/click';
import { renderRoute } from '@/testing/render-route';
import { server } from '@/testing/msw-server';

const RECORDED = `\x1a\x45\xdf\xa3 V_VP8 A_OPUS recorded video`;

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
    // a chunk while recording, as a real recorder's timeslice gives: it must go nowhere
    setTimeout(() => this.ondataavailable?.({ data: new Blob([Uint8Array.from(RECORDED, (c) => c.charCodeAt(0))]) }), 0);
  }
  stop() {
    this.state = 'inactive';
    this.ondataavailable?.({ data: new Blob([' and the rest'], { type: 'video/webm' }) });
    this.onstop?.();
  }
}

/** Any XMLHttpRequest (the answers' transport) is a failure of the test. */
const xhrOpened = vi.fn();
class NoUpload {
  open(...args: unknown[]) {
    xhrOpened(...args);
  }
  setRequestHeader() {}
  send() {}
}

beforeEach(() => {
  xhrOpened.mockReset();
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  vi.stubGlobal('XMLHttpRequest', NoUpload);
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: vi.fn(() => Promise.resolve({ getTracks: () => [{ stop: vi.fn() }] })) },
  });
  URL.createObjectURL = vi.fn(() => 'blob:practice');
  URL.revokeObjectURL = vi.fn();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function storedKeys(): Promise<string[]> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open('screenroom');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error ?? new Error('IndexedDB failed'));
  });
  const keys: string[] = [];
  for (const name of Array.from(db.objectStoreNames)) {
    const all = await new Promise<IDBValidKey[]>((resolve, reject) => {
      const req = db.transaction(name).objectStore(name).getAllKeys();
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error ?? new Error('IndexedDB failed'));
    });
    keys.push(...all.map((key) => `${name}/${JSON.stringify(key)}`));
  }
  db.close();
  return keys;
}

describe('the practice question', () => {
  it('records unlimited takes played back on the device, and sends nothing', async () => {
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
          questions: [{ id: 'q1', title: 'Intro', description: 'Tell us', timeout: 45, canPreview: true, kind: 'video', takes: 1 }],
          answeredQuestionIds: [],
        }),
      ),
    );
    const view = renderRoute('/candidates/cand1/practice');
    expect(await screen.findByText('Practice — not sent to the company')).toBeInTheDocument();
    expect(screen.getByText('1:00')).toBeInTheDocument();

    for (const take of [1, 2, 3]) {
      expect(await screen.findByText(`Practice take ${take}`)).toBeInTheDocument();
      await clickWhenEnabled('Start Recording');
      await userEvent.click(await screen.findByRole('button', { name: 'Stop Recording' }));
      expect(await screen.findByLabelText('Your recording')).toHaveAttribute('src', 'blob:practice');
      expect(screen.queryByRole('button', { name: 'Submit answer' })).toBeNull();
      // more takes than the job's question allows (1): practice has no limit
      await userEvent.click(screen.getByRole('button', { name: 'Record again' }));
    }

    // nothing but the interview's read reached the server, and nothing was kept on the device
    expect(requests.every((request) => request === 'GET /api/screenroom/interviews/cand1')).toBe(true);
    expect(xhrOpened).not.toHaveBeenCalled();
    expect(await storedKeys()).toEqual([]);

    await userEvent.click(screen.getByRole('link', { name: 'Back to the interview' }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/candidates/cand1/check'));
  });
});
