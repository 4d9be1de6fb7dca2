import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';

import { managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

const stamp = { created: '2024-03-01 10:00:00.000Z', updated: '2024-03-01 10:00:00.000Z' };
const videoQuestion = {
  ...stamp,
  id: 'q1',
  collectionId: 'x',
  collectionName: 'questions',
  company: 'c1',
  title: 'Tell us about yourself',
  description: 'A minute is enough.',
  timeout: 60,
  canPreview: true,
  expand: { video_questions_via_question: { ...stamp, id: 'vq1', collectionId: 'y', collectionName: 'video_questions', question: 'q1', takes: 2, preparation: 45 } },
};

type BatchRequest = { method: string; url: string; body?: Record<string, unknown> };

function captureBatch() {
  const sent: BatchRequest[][] = [];
  server.use(
    http.get('*/api/collections/questions/records/q1', () => HttpResponse.json(videoQuestion)),
    http.get('*/api/collections/questions/records', () =>
      HttpResponse.json({ page: 1, perPage: 500, totalItems: 1, totalPages: 1, items: [videoQuestion] }),
    ),
    // the questions list 'Cancel' goes to (server/internal/questions/questions_list.go)
    http.get('*/api/screenroom/companies/c1/questions', () =>
      HttpResponse.json({ page: 1, perPage: 1, totalItems: 1, totalPages: 1, items: [videoQuestion] }),
    ),
    http.post('*/api/batch', async ({ request }) => {
      // The SDK sends a batch as multipart form data with the JSON under '@jsonPayload'.
      const payload = (await request.formData()).get('@jsonPayload');
      if (typeof payload !== 'string') throw new Error('A batch without its JSON payload');
      const { requests } = JSON.parse(payload) as { requests: BatchRequest[] };
      sent.push(requests);
      return HttpResponse.json(requests.map(() => ({ status: 200, body: {} })));
    }),
  );
  return sent;
}

describe('edit question', () => {
  // The shell around the screen: the switcher lists the user's company, c1.
  beforeEach(() => managerShellApi());

  it('swaps the kind in one batch: the question, then the old kind deleted, then the new one created', async () => {
    signInAs({ primaryCompany: 'c1' });
    const sent = captureBatch();
    const user = userEvent.setup();
    const view = renderRoute('/companies/c1/questions/q1/edit');

    expect(await screen.findByLabelText('Title')).toHaveValue('Tell us about yourself');
    expect(screen.getByLabelText('Takes')).toHaveValue(2);
    await user.click(screen.getByRole('radio', { name: 'Text' }));
    await user.click(screen.getByRole('button', { name: 'Update Question' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Questions' })).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/companies/c1/questions');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'PATCH /api/collections/questions/records/q1',
      'DELETE /api/collections/video_questions/records/vq1',
      'POST /api/collections/text_questions/records',
    ]);
    expect(sent[0]![0]!.body).toEqual({
      title: 'Tell us about yourself',
      description: 'A minute is enough.',
      timeout: 60,
      canPreview: true,
    });
    expect(sent[0]![2]!.body).toEqual({ question: 'q1' });
  });

  it('keeps the kind record and updates its takes when the kind stays', async () => {
    signInAs({ primaryCompany: 'c1' });
    const sent = captureBatch();
    const user = userEvent.setup();
    renderRoute('/companies/c1/questions/q1/edit');

    const takes = await screen.findByLabelText('Takes');
    await user.clear(takes);
    await user.type(takes, '4');
    // the stored preparation is what the form starts from
    const preparation = screen.getByLabelText('Preparation time (seconds)');
    expect(preparation).toHaveValue(45);
    await user.clear(preparation);
    await user.type(preparation, '120');
    await user.click(screen.getByRole('button', { name: 'Update Question' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Questions' })).toBeInTheDocument();
    expect(sent[0]!.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'PATCH /api/collections/questions/records/q1',
      'PATCH /api/collections/video_questions/records/vq1',
    ]);
    expect(sent[0]![1]!.body).toEqual({ takes: 4, preparation: 120 });
  });

  it("'Cancel' goes to the list", async () => {
    signInAs({ primaryCompany: 'c1' });
    captureBatch();
    const user = userEvent.setup();
    const view = renderRoute('/companies/c1/questions/q1/edit');
    await user.click(await screen.findByRole('link', { name: 'Cancel' }));
    expect(await screen.findByRole('link', { name: 'Edit Tell us about yourself' })).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/companies/c1/questions');
  });
});
