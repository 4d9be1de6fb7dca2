import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';

import { fullList, managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

// The guard as the forms use it (src/components/unsaved-changes.tsx), on the new question screen.
describe('leaving a form with unsaved changes', () => {
  beforeEach(() => {
    signInAs({ primaryCompany: 'c1' });
    managerShellApi();
    server.use(http.get('*/api/collections/questions/records', () => HttpResponse.json(fullList([]))));
  });

  it("asks 'Leave without saving?': Stay keeps what was typed, Leave goes", async () => {
    const user = userEvent.setup();
    const view = renderRoute('/companies/c1/questions/new');
    await user.type(await screen.findByLabelText('Title'), 'Half a question');

    await view.router.navigate('/companies/c1/jobs');
    expect(await screen.findByRole('alertdialog', { name: 'Leave without saving?' })).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/companies/c1/questions/new');
    await user.click(screen.getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByLabelText('Title')).toHaveValue('Half a question');
    expect(view.router.state.location.pathname).toBe('/companies/c1/questions/new');

    // the browser's question too, while there are changes
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    await view.router.navigate('/companies/c1/jobs');
    await user.click(await screen.findByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/companies/c1/jobs'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('lets an untouched form go without asking, and nothing holds the tab', async () => {
    const view = renderRoute('/companies/c1/questions/new');
    await screen.findByLabelText('Title');
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(false);
    await view.router.navigate('/companies/c1/jobs');
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/companies/c1/jobs'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('does not ask when the form is saved and moves on', async () => {
    server.use(
      http.post('*/api/batch', async ({ request }) => {
        const payload = (await request.formData()).get('@jsonPayload');
        if (typeof payload !== 'string') throw new Error('A batch without its JSON payload');
        const { requests } = JSON.parse(payload) as { requests: { body: Record<string, unknown> }[] };
        return HttpResponse.json([
          { status: 200, body: { ...requests[0]!.body, created: '2024-03-01 10:00:00.000Z', updated: '' } },
          { status: 200, body: { id: 'k1', ...requests[1]!.body } },
        ]);
      }),
    );
    const user = userEvent.setup();
    const view = renderRoute('/companies/c1/questions/new');
    await user.type(await screen.findByLabelText('Title'), 'Tell us about yourself');
    await user.type(screen.getByLabelText('Description'), 'A minute is enough.');
    await user.click(screen.getByRole('radio', { name: 'Text' }));
    await user.click(screen.getByRole('button', { name: 'Create Question' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Questions' })).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/companies/c1/questions');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
