import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

const at = '2024-03-01 10:00:00.000Z';
const question = { id: 'q1', collectionId: 'questions', collectionName: 'questions', company: 'c1', title: 'Tell us about yourself', description: 'd', timeout: 60, canPreview: true, archived: false, created: at, updated: at };
const job = (language: string) => ({
  id: 'j1',
  collectionId: 'jobs',
  collectionName: 'jobs',
  company: 'c1',
  title: 'Senior Engineer',
  description: 'Build the product.',
  location: 'Remote',
  welcomeMessage: '',
  responseDays: 0,
  language,
  questions: ['q1'],
  closedAt: '',
  created: at,
  updated: at,
  expand: { questions: [question] },
});

function serve(language: string) {
  managerShellApi();
  const saved: Record<string, unknown>[] = [];
  server.use(
    http.get('*/api/collections/jobs/records/j1', () => HttpResponse.json(job(language))),
    http.get('*/api/collections/questions/records', () => HttpResponse.json({ page: 1, perPage: 500, totalItems: 1, totalPages: 1, items: [question] })),
    http.patch('*/api/collections/jobs/records/j1', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      saved.push(body);
      return HttpResponse.json({ ...job(language), ...body });
    }),
  );
  return saved;
}

describe("editing a job's candidate language", () => {
  it("starts from the job's language and saves the one chosen", async () => {
    signInAs({ primaryCompany: 'c1' });
    const saved = serve('es');
    renderRoute('/companies/c1/jobs/j1/edit');
    const select = await screen.findByRole('combobox', { name: 'Candidate language' });
    expect(select).toHaveValue('es');
    await userEvent.setup().selectOptions(select, 'Nederlands');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Update Job' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ title: 'Senior Engineer', language: 'nl', questions: ['q1'] });
  });

  it('reads a job without a language (made before languages existed) as English', async () => {
    signInAs({ primaryCompany: 'c1' });
    serve('');
    renderRoute('/companies/c1/jobs/j1/edit');
    expect(await screen.findByRole('combobox', { name: 'Candidate language' })).toHaveValue('en');
  });
});
