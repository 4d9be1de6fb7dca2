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
  failingSince?: string;
  disabledAt?: string;
  disabledReason?: string;
  secretRotatedAt?: string;
  previousSecretUntil?: string;
}

const ENDPOINT: Endpoint = {
  id: 'e1',
  company: 'c1',
  url: 'https://ats.example.com/hook',
  events: ['candidate.completed'],
  enabled: true,
  created: '2024-05-01 10:00:00.000Z',
  updated: '2024-05-01 10:00:00.000Z',
};

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

  it('sends a test event and says how it went: delivered with its status and time, or why it failed', async () => {
    signInAs({ primaryCompany: 'c1' });
    managerShellApi();
    webhooksApi([{ ...ENDPOINT }]);
    const answers = [
      delivery({ id: 't1', event: 'webhook.test', status: 'succeeded', attempts: 1, lastStatus: 200, latencyMs: 87, lastError: '' }),
      delivery({ id: 't2', event: 'webhook.test', status: 'failed', attempts: 1, lastStatus: 301, lastError: 'The endpoint answered 301, a redirect to https://new.example.com/hook. Redirects are not followed, so this delivery is not retried: set the endpoint\'s URL to the address it redirects to.' }),
    ];
    const tested: string[] = [];
    server.use(
      http.post(api('/api/screenroom/webhook-endpoints/:id/test'), ({ params }) => {
        tested.push(String(params.id));
        const answer = answers.shift();
        if (!answer) return HttpResponse.json({ status: 409, message: 'A test event is already being sent to this endpoint.', data: {} }, { status: 409 });
        return HttpResponse.json(answer);
      }),
    );
    renderRoute('/companies/c1/webhooks');
    const user = userEvent.setup();

    const endpoint = await screen.findByRole('region', { name: 'Endpoint https://ats.example.com/hook' });
    await user.click(within(endpoint).getByRole('button', { name: 'Send a test event' }));
    expect(await within(endpoint).findByText('Test event delivered: HTTP 200 in 87 ms.')).toBeInTheDocument();
    expect(tested).toEqual(['e1']);

    await user.click(within(endpoint).getByRole('button', { name: 'Send a test event' }));
    expect(await within(endpoint).findByText(/^Test event failed: The endpoint answered 301, a redirect to https:\/\/new\.example\.com\/hook\./)).toBeInTheDocument();

    // a refusal in the product's words, as a toast
    await user.click(within(endpoint).getByRole('button', { name: 'Send a test event' }));
    expect(await screen.findByText('A test event is already being sent to this endpoint. Wait for its result.')).toBeInTheDocument();
  });

  it('offers no Send again for a test event', async () => {
    signInAs({ primaryCompany: 'c1' });
    managerShellApi();
    webhooksApi([{ ...ENDPOINT }]);
    server.use(
      http.get(api('/api/collections/webhook_deliveries/records'), () =>
        HttpResponse.json({ page: 1, perPage: 50, totalItems: -1, totalPages: -1, items: [delivery({ id: 't1', event: 'webhook.test' }), delivery({ id: 'd2' })] }),
      ),
    );
    renderRoute('/companies/c1/webhooks');
    const endpoint = await screen.findByRole('region', { name: 'Endpoint https://ats.example.com/hook' });
    const rows = within(await within(endpoint).findByRole('table')).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('webhook.test');
    expect(within(rows[0]!).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rows[1]!).getByRole('button', { name: 'Send the candidate.completed delivery again' })).toBeInTheDocument();
  });

  it('rotates the secret after saying how deliveries are signed meanwhile, and shows the new one once', async () => {
    signInAs({ primaryCompany: 'c1' });
    managerShellApi();
    const endpoints = [{ ...ENDPOINT }];
    webhooksApi(endpoints);
    const NEW = 'whsec_Zm9yIHRoZSBuZXh0IGRheSBvbmx5IQ==abcd';
    const rotated: string[] = [];
    server.use(
      http.post(api('/api/screenroom/webhook-endpoints/:id/rotate-secret'), ({ params }) => {
        rotated.push(String(params.id));
        Object.assign(endpoints[0]!, { secretRotatedAt: '2099-05-02 10:00:00.000Z', previousSecretUntil: '2099-05-03 10:00:00.000Z' });
        return HttpResponse.json({ ...endpoints[0], secret: NEW });
      }),
    );
    renderRoute('/companies/c1/webhooks');
    const user = userEvent.setup();

    const endpoint = await screen.findByRole('region', { name: 'Endpoint https://ats.example.com/hook' });
    await user.click(within(endpoint).getByRole('button', { name: 'Rotate secret' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Rotate the signing secret?' });
    expect(dialog).toHaveTextContent("Every delivery sent from now on is signed with it, retries and 'Send again' of earlier events included.");
    expect(dialog).toHaveTextContent('each delivery also carries a second signature made with the current secret');
    expect(rotated).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Rotate secret' }));

    const secret = await screen.findByRole('region', { name: 'Signing secret' });
    expect(secret).toHaveTextContent(NEW);
    expect(secret).toHaveTextContent('Copy the new signing secret of https://ats.example.com/hook now. It will not be shown again.');
    expect(secret).toHaveTextContent('every delivery also carries a signature made with the old secret');
    expect(rotated).toEqual(['e1']);
    expect(await within(endpoint).findByText(/Deliveries also carry a signature made with the previous secret until/)).toBeInTheDocument();
  });

  it('says why the server disabled an endpoint and how to bring it back, and when one is failing', async () => {
    signInAs({ primaryCompany: 'c1' });
    managerShellApi();
    webhooksApi([
      { ...ENDPOINT, enabled: false, failingSince: '2024-05-01 08:00:00.000Z', disabledAt: '2024-05-06 08:30:00.000Z', disabledReason: 'The endpoint answered 500.' },
      { ...ENDPOINT, id: 'e2', url: 'https://crm.example.com/hook', failingSince: '2024-05-05 09:00:00.000Z' },
    ]);
    renderRoute('/companies/c1/webhooks');

    const disabled = await screen.findByRole('region', { name: 'Endpoint https://ats.example.com/hook' });
    const notice = within(disabled).getByText(/^Screenroom disabled this endpoint on/);
    expect(notice).toHaveTextContent('every delivery had failed since');
    expect(notice).toHaveTextContent('Last error: The endpoint answered 500.');
    expect(notice).toHaveTextContent('send a test event, then enable the endpoint');
    expect(within(disabled).getByText('Disabled')).toBeInTheDocument();

    const failing = screen.getByRole('region', { name: 'Endpoint https://crm.example.com/hook' });
    expect(within(failing).getByText(/^Failing since/)).toBeInTheDocument();
    expect(within(failing).getByText(/Screenroom disables the endpoint and e-mails the company's owner/)).toBeInTheDocument();
    expect(within(failing).queryByText(/^Screenroom disabled this endpoint/)).not.toBeInTheDocument();
  });
});
