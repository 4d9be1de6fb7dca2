import 'fake-indexeddb/auto';

import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { env } from '@/config/env';
import { FakeXhr } from '@/testing/fake-xhr';
import { renderRoute } from '@/testing/render-route';
import { server } from '@/testing/msw-server';

import { createIndexedDbAnswerStore, type PendingAnswer } from '../upload/answer-store';

// A reopened link finds answers this device kept that the server lost (a restore): they go again, with their
// receipt, and the candidate reads one line saying so in their language; nothing when nothing went again.

const interviewUrl = `${env.apiUrl}/api/screenroom/interviews/:id`;

/** The answers route: records each answer's form and confirms it with a new receipt. */
class ConfirmingUpload extends FakeXhr {
  static sent: FormData[] = [];
  send(body: FormData) {
    ConfirmingUpload.sent.push(body);
    setTimeout(() => {
      this.status = 200;
      const id = body.get('id') as string;
      this.response = { answer: { id }, receipt: `new receipt of ${id}` };
      this.onload?.();
    }, 0);
  }
}

function api(candidateKey: string, missing: (ids: string[]) => string[]) {
  const asked: unknown[] = [];
  server.use(
    http.get(interviewUrl, ({ params }) => {
      if (params.id !== candidateKey) return HttpResponse.json({ status: 404, message: 'This interview link is not valid.', data: {} }, { status: 404 });
      return HttpResponse.json({
        candidateId: 'rec1',
        companyName: 'Globex',
        companyLogoUrl: '',
        privacyUrl: '',
        jobTitle: 'Support engineer',
        welcomeMessage: '',
        consentedAt: '2026-12-02 09:00:00.000Z',
        questions: [{ id: 'q1', title: 'Why us?', description: '', timeout: 90, canPreview: true, kind: 'text', takes: 1 }],
        answeredQuestionIds: [],
        language: 'de',
        candidateLanguage: '',
        retentionMonths: 6,
      });
    }),
    http.post(`${interviewUrl}/kept-answers`, async ({ request }) => {
      const body = (await request.json()) as { answers: { id: string }[] };
      asked.push(body);
      return HttpResponse.json({ missing: missing(body.answers.map((a) => a.id)) });
    }),
  );
  return asked;
}

async function keptOnThisDevice(answer: PendingAnswer, receipt: string) {
  const store = createIndexedDbAnswerStore();
  await store.put(answer);
  await store.keep(answer, Date.now(), receipt);
}

describe('answers the server lost', () => {
  beforeEach(() => {
    ConfirmingUpload.sent = [];
    vi.stubGlobal('XMLHttpRequest', ConfirmingUpload);
  });

  it('go again with their receipt, and the candidate reads one line in their language', async () => {
    const answer: PendingAnswer = { id: 'aaaaaaaaaaaaaa1', candidateId: 'keyresent1', questionId: 'q1', createdAt: 1, kind: 'text', content: 'Weil Sie fair sind.' };
    await keptOnThisDevice(answer, 'v1.1.receipt');
    const asked = api('keyresent1', (ids) => ids);
    renderRoute('/candidates/keyresent1');

    expect(await screen.findByText('Wir haben 1 Antwort erneut gesendet, die dem Server verloren gegangen war.')).toBeInTheDocument();
    expect(asked).toEqual([{ answers: [{ id: 'aaaaaaaaaaaaaa1', question: 'q1' }] }]);
    expect(ConfirmingUpload.sent).toHaveLength(1);
    const form = ConfirmingUpload.sent[0]!;
    expect([form.get('id'), form.get('question'), form.get('content'), form.get('receipt')]).toEqual(['aaaaaaaaaaaaaa1', 'q1', 'Weil Sie fair sind.', 'v1.1.receipt']);
    // kept again, with the server's new receipt
    await waitFor(async () => expect((await createIndexedDbAnswerStore().listKept('keyresent1')).map((k) => k.receipt)).toEqual(['new receipt of aaaaaaaaaaaaaa1']));
  });

  it('say nothing, and send nothing, when the server still holds them', async () => {
    const answer: PendingAnswer = { id: 'aaaaaaaaaaaaaa2', candidateId: 'keyresent2', questionId: 'q1', createdAt: 1, kind: 'text', content: 'Held.' };
    await keptOnThisDevice(answer, 'v1.2.receipt');
    const asked = api('keyresent2', () => []);
    renderRoute('/candidates/keyresent2');
    expect(await screen.findByRole('heading', { level: 1, name: 'Interview bei Globex' })).toBeInTheDocument();
    await waitFor(() => expect(asked).toHaveLength(1));
    expect(ConfirmingUpload.sent).toEqual([]);
    expect(screen.queryByTestId('interview-resent')).toBeNull();
  });
});
