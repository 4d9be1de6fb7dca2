import { Theme } from '@radix-ui/themes';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { server } from '@/testing/msw-server';
import { createTestQueryClient } from '@/testing/render-route';

import { JobForm } from './job-form';

const question = (id: string, title: string, archived: boolean) => ({
  id,
  title,
  archived,
  collectionId: 'questions',
  collectionName: 'questions',
  company: 'c1',
  description: 'd',
  timeout: 60,
  canPreview: false,
  created: '2024-01-01 00:00:00.000Z',
  updated: '2024-01-01 00:00:00.000Z',
});

describe("the job form's question picker (issue 16)", () => {
  it('leaves archived questions out, while a job that already asks one keeps showing it', async () => {
    const bank = [question('q1', 'Tell us about yourself', false), question('q2', 'An archived question', true), question('q3', 'Asked and archived', true)];
    server.use(
      http.get('*/api/collections/questions/records', () => HttpResponse.json({ page: 1, perPage: 500, totalItems: 3, totalPages: 1, items: bank })),
    );
    render(
      <QueryClientProvider client={createTestQueryClient()}>
        <Theme>
          <JobForm
            companyId="c1"
            defaultValues={{ title: 'Job', description: 'Do things', location: 'Remote', questions: ['q3'] }}
            submitLabel="Update Job"
            onSubmit={() => Promise.resolve()}
            cancel={null}
          />
        </Theme>
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    expect(await screen.findByText('Asked and archived')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add questions' });
    expect(dialog).toHaveTextContent('Tell us about yourself');
    expect(dialog).not.toHaveTextContent('An archived question');
  });
});
