import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

type BatchRequest = { method: string; url: string; body: Record<string, unknown> };

describe('new question', () => {
  it.each([
    ['Video', 'video_questions', { takes: 3, preparation: 30 }],
    ['Text', 'text_questions', {}],
  ])('creates a %s question and its kind record in one batch, then shows the list', async (kind, collection, data) => {
    signInAs({ primaryCompany: 'c1' });
    const sent: BatchRequest[][] = [];
    // The shell around the screen: the switcher lists the user's company, c1.
    managerShellApi();
    server.use(
      http.post('*/api/batch', async ({ request }) => {
        const payload = (await request.formData()).get('@jsonPayload');
        if (typeof payload !== 'string') throw new Error('A batch without its JSON payload');
        const { requests } = JSON.parse(payload) as { requests: BatchRequest[] };
        sent.push(requests);
        return HttpResponse.json([
          { status: 200, body: { ...requests[0]!.body, created: '2024-03-01 10:00:00.000Z', updated: '' } },
          { status: 200, body: { id: 'k1', ...requests[1]!.body } },
        ]);
      }),
      http.get('*/api/collections/questions/records', () =>
        HttpResponse.json({ page: 1, perPage: 500, totalItems: 0, totalPages: 1, items: [] }),
      ),
      // the list the screen goes back to (server/internal/questions/questions_list.go)
      http.get('*/api/screenroom/companies/c1/questions', () =>
        HttpResponse.json({ page: 1, perPage: 1000, totalItems: 0, totalPages: 0, items: [] }),
      ),
    );
    const user = userEvent.setup();
    const view = renderRoute('/companies/c1/questions/new');

    await user.type(await screen.findByLabelText('Title'), 'Tell us about yourself');
    await user.type(screen.getByLabelText('Description'), 'A minute is enough.');
    await user.click(screen.getByRole('radio', { name: kind }));
    await user.click(screen.getByRole('button', { name: 'Create Question' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Questions' })).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/companies/c1/questions');
    const [question, kindRecord] = sent[0]!;
    expect(question!.url).toBe('/api/collections/questions/records');
    expect(question!.body).toEqual({
      id: expect.stringMatching(/^[a-z0-9]{15}$/) as unknown,
      company: 'c1',
      title: 'Tell us about yourself',
      description: 'A minute is enough.',
      timeout: 5,
      canPreview: false,
    });
    expect(kindRecord!.url).toBe(`/api/collections/${collection}/records`);
    expect(kindRecord!.body).toEqual({ question: question!.body.id, ...data });
  });
});
