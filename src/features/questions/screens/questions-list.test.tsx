import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';

import { fullList, managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

const stamp = { created: '2024-03-01 10:00:00.000Z', updated: '2024-03-01 10:00:00.000Z' };
const base = { ...stamp, collectionId: 'x', collectionName: 'questions', company: 'c1', description: 'd', canPreview: false };
const kind = (collectionName: string, question: string, extra: Record<string, unknown> = {}) => ({
  ...stamp,
  id: `k${question}`,
  collectionId: 'y',
  collectionName,
  question,
  ...extra,
});

describe('the questions list', () => {
  beforeEach(() => {
    signInAs({ primaryCompany: 'c1' });
    managerShellApi();
  });

  it("shows each question's kind, time limit, takes, preparation and jobs, from one request and the jobs list", async () => {
    const requests: URL[] = [];
    const job = (id: string, questions: string[]) => ({ ...stamp, id, collectionId: 'j', collectionName: 'jobs', company: 'c1', title: id, questions });
    server.use(
      // the company home's jobs list: q1 in two jobs, q2 in one, q3 in none
      http.get('*/api/screenroom/companies/c1/jobs', () => HttpResponse.json([job('j1', ['q1', 'q2']), job('j2', ['q1'])])),
      // the questions list route (server/internal/questions/questions_list.go): the kinds expanded as the records API
      // does
      http.get('*/api/screenroom/companies/c1/questions', ({ request }) => {
        requests.push(new URL(request.url));
        return HttpResponse.json(
          fullList([
            {
              ...base,
              id: 'q1',
              title: 'Tell us about yourself',
              timeout: 90,
              // a unique back-relation comes as one record, a list otherwise: both are read
              expand: { video_questions_via_question: kind('video_questions', 'q1', { takes: 2, preparation: 45 }) },
            },
            {
              ...base,
              id: 'q2',
              title: 'Why us?',
              timeout: 120,
              expand: { text_questions_via_question: [kind('text_questions', 'q2')] },
            },
            { ...base, id: 'q3', title: 'Unused', timeout: 30, expand: { text_questions_via_question: kind('text_questions', 'q3') } },
          ]),
        );
      }),
    );
    renderRoute('/companies/c1/questions');

    const video = await screen.findByRole('row', { name: /Tell us about yourself/ });
    await within(video).findByText('2 jobs');
    expect(within(video).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(
      expect.arrayContaining(['Video', '1 min 30 s', '2', '45 s', '2 jobs']),
    );
    const text = screen.getByRole('row', { name: /Why us\?/ });
    expect(within(text).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(
      expect.arrayContaining(['Text', '2 min', '—', '1 job']),
    );
    expect(within(screen.getByRole('row', { name: /Unused/ })).getByText('No job')).toBeInTheDocument();
    for (const header of ['Kind', 'Time limit', 'Takes', 'Preparation', 'Used in']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    // one list read with the kinds (no request per row, no jobs_via_questions: issue 20)
    expect(requests).toHaveLength(1);
  });

  it("links an empty list to 'Add your first question'", async () => {
    server.use(http.get('*/api/screenroom/companies/c1/questions', () => HttpResponse.json(fullList([]))));
    const view = renderRoute('/companies/c1/questions');
    const link = await screen.findByRole('link', { name: 'Add your first question' });
    expect(link).toHaveAttribute('href', '/companies/c1/questions/new');
    expect(screen.getByText(/No questions yet\./)).toBeInTheDocument();
    expect(view.container.querySelector('table')).toBeNull();
  });
});
