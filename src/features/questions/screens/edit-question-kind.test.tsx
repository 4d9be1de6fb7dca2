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
  archived: false,
  expand: { video_questions_via_question: { ...stamp, id: 'vq1', collectionId: 'y', collectionName: 'video_questions', question: 'q1', takes: 2 } },
};

const KIND_REFUSED = "Candidates have answered this question, so its kind can't change. Create a new question of the other kind instead.";

describe('edit question, once candidates answered it (issue 16)', () => {
  beforeEach(() => managerShellApi());

  it("shows the server's refusal to change the kind under Kind, and keeps what was entered", async () => {
    signInAs({ primaryCompany: 'c1' });
    server.use(
      http.get('*/api/collections/questions/records/q1', () => HttpResponse.json(videoQuestion)),
      // PocketBase's answer to a refused batch: the failing request's own answer inside
      http.post('*/api/batch', () =>
        HttpResponse.json(
          {
            status: 400,
            message: 'Batch transaction failed.',
            data: {
              requests: {
                '1': {
                  code: 'batch_request_failed',
                  message: 'Batch request failed.',
                  response: { status: 400, message: KIND_REFUSED, data: { kind: { code: 'question_has_answers', message: KIND_REFUSED } } },
                },
              },
            },
          },
          { status: 400 },
        ),
      ),
    );
    const user = userEvent.setup();
    const view = renderRoute('/companies/c1/questions/q1/edit');

    const title = await screen.findByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Tell us about your week');
    await user.click(screen.getByRole('radio', { name: 'Text' }));
    await user.click(screen.getByRole('button', { name: 'Update Question' }));

    expect(await screen.findByText(KIND_REFUSED.replace(/\.$/, ''))).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/companies/c1/questions/q1/edit');
    expect(screen.getByLabelText('Title')).toHaveValue('Tell us about your week');
    expect(screen.getByRole('radio', { name: 'Text' })).toBeChecked();
  });
});
