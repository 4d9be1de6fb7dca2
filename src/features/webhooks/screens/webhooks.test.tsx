import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { env } from '@/config/env';
import { fullList, managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

const api = (path: string) => `${env.apiUrl}${path}`;
const SECRET = 'whsec_MfKQ9r8GKYqrTAjXo5oFLLsBkWI0TAEw';

interface Endpoint {
  id: string;
  company: string;
  url: string;
  events: string[];
  enabled: boolean;
  created: string;
  updated: string;
}

function delivery(overrides: Record<string, unknown> = {}) {
  return {
    id: 'd1',
    endpoint: 'e1',
    event: 'candidate.completed',
    status: 'failed',
    attempts: 9,
    lastStatus: 500,
    latencyMs: 42,
    lastError: 'The endpoint answered 500.',
    created: '2024-05-02 10:00:00.000Z',
    updated: '2024-05-02 10:00:00.000Z',
    deliveredAt: '',
    ...overrides,
  };
}

/** The endpoints and deliveries of company c1, kept in memory as the server would. */
function webhooksApi(endpoints: Endpoint[] = []) {
  const posted: Record<string, unknown>[] = [];
  const sentAgain: string[] = [];
  const deliveries = [delivery()];
  server.use(
    http.get(api('/api/collections/webhook_endpoints/records'), () => HttpResponse.json(fullList(endpoints))),
    http.post(api('/api/collections/webhook_endpoints/records'), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      posted.push(body);
      if (String(body.url).includes('10.0.0.1')) {
        const message = 'This address is on a private network. Webhooks go to public addresses only.';
        return HttpResponse.json({ status: 400, message, data: { url: { code: 'validation_invalid_url', message } } }, { status: 400 });
      }
      const created = {
        id: `e${endpoints.length + 1}`,
        company: String(body.company),
        url: String(body.url),
        events: body.events as string[],
        enabled: true,
        created: '2024-05-02 10:00:00.000Z',
        updated: '2024-05-02 10:00:00.000Z',
      };
      endpoints.push(created);
      // the secret is in this response only
      return HttpResponse.json({ ...created, secret: SECRET });
    }),
    http.patch(api('/api/collections/webhook_endpoints/records/:id'), async ({ params, request }) => {
      const body = (await request.json()) as { enabled: boolean };
      const endpoint = endpoints.find((e) => e.id === params.id)!;
      endpoint.enabled = body.enabled;
      return HttpResponse.json(endpoint);
    }),
    http.get(api('/api/collections/webhook_deliveries/records'), () =>
      HttpResponse.json({ page: 1, perPage: 50, totalItems: -1, totalPages: -1, items: deliveries }),
    ),
    http.post(api('/api/screenroom/webhook-deliveries/:id/send-again'), ({ params }) => {
      sentAgain.push(String(params.id));
      deliveries[0] = delivery({ status: 'pending', attempts: 0, lastError: '' });
      return HttpResponse.json(deliveries[0]);
    }),
  );
  return { posted, sentAgain };
}

describe('Webhooks', () => {
  it('checks the form on its fields, shows the server refusal under the URL, then the secret once', async () => {
    signInAs({ primaryCompany: 'c1' });
    managerShellApi();
    const { posted } = webhooksApi();
    renderRoute('/companies/c1/webhooks');
    const user = userEvent.setup();

    const form = await screen.findByRole('form', { name: 'Add an endpoint' });
    expect(await screen.findByText('No endpoints yet.')).toBeInTheDocument();

    // nothing typed, every event unticked: a message on each field, nothing sent
    for (const box of within(form).getAllByRole('checkbox')) await user.click(box);
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByText('Enter the URL that receives the events')).toBeInTheDocument();
    expect(screen.getByText('Choose at least one event')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Endpoint URL'), 'http://hooks.example.com/in');
    await user.click(within(form).getByRole('checkbox', { name: /A candidate completes the interview/ }));
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByText('Use an https:// address')).toBeInTheDocument();
    expect(posted).toEqual([]);

    // the server's refusal lands under the field, and what was typed stays
    await user.clear(screen.getByLabelText('Endpoint URL'));
    await user.type(screen.getByLabelText('Endpoint URL'), 'https://10.0.0.1/in');
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByText('This address is on a private network. Webhooks go to public addresses only')).toBeInTheDocument();
    expect(screen.getByLabelText('Endpoint URL')).toHaveValue('https://10.0.0.1/in');

    await user.clear(screen.getByLabelText('Endpoint URL'));
    await user.type(screen.getByLabelText('Endpoint URL'), 'https://hooks.example.com/in');
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    const secret = await screen.findByRole('region', { name: 'Signing secret' });
    expect(secret).toHaveTextContent(SECRET);
    expect(secret).toHaveTextContent('It will not be shown again');
    expect(posted.at(-1)).toEqual({ company: 'c1', url: 'https://hooks.example.com/in', events: ['candidate.completed'], enabled: true });

    // the copy button puts it on the clipboard
    await user.click(within(secret).getByRole('button', { name: 'Copy secret' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);

    // the list shows the endpoint; once dismissed, the secret is gone for good
    expect(await screen.findByRole('region', { name: 'Endpoint https://hooks.example.com/in' })).toBeInTheDocument();
    await user.click(within(secret).getByRole('button', { name: 'I have saved it' }));
    await waitFor(() => expect(screen.queryByText(SECRET)).not.toBeInTheDocument());
  });

  it('lists the deliveries of an endpoint, disables it, and sends a failed delivery again', async () => {
    signInAs({ primaryCompany: 'c1' });
    managerShellApi();
    const { sentAgain } = webhooksApi([
      {
        id: 'e1',
        company: 'c1',
        url: 'https://ats.example.com/hook',
        events: ['candidate.completed'],
        enabled: true,
        created: '2024-05-01 10:00:00.000Z',
        updated: '2024-05-01 10:00:00.000Z',
      },
    ]);
    renderRoute('/companies/c1/webhooks');
    const user = userEvent.setup();

    const endpoint = await screen.findByRole('region', { name: 'Endpoint https://ats.example.com/hook' });
    const table = await within(endpoint).findByRole('table');
    const row = within(table).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('candidate.completed');
    expect(row).toHaveTextContent('failed');
    expect(row).toHaveTextContent('The endpoint answered 500.');
    expect(row).toHaveTextContent('500');
    expect(row).toHaveTextContent('42 ms');
    expect(row).toHaveTextContent('9');

    await user.click(within(row).getByRole('button', { name: 'Send the candidate.completed delivery again' }));
    await waitFor(() => expect(sentAgain).toEqual(['d1']));
    await waitFor(() => expect(within(endpoint).getAllByRole('row')[1]).toHaveTextContent('pending'));

    expect(within(endpoint).getByText('Enabled')).toBeInTheDocument();
    await user.click(within(endpoint).getByRole('button', { name: 'Disable' }));
    expect(await within(endpoint).findByText('Disabled')).toBeInTheDocument();
  });
});
