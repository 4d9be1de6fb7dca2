import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { env } from '@/config/env';
import { LOCALES } from '@/lib/locales';
import { queryClient } from '@/lib/query-client';
import { managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

import type { DecisionTemplate } from '../api/decision-templates';

const api = (path: string) => `${env.apiUrl}${path}`;

afterEach(() => {
  vi.restoreAllMocks();
  queryClient.clear();
});

const defaults = (kind: 'advance' | 'reject', language: string) => ({
  subject: `${kind} subject in ${language} for {job}`,
  body: `${kind} body in ${language} at {company}.`,
});

/** Company c1's templates as the server keeps them: every kind and language, the company's own where saved. */
function templatesApi() {
  const own = new Map<string, { id: string; subject: string; body: string }>();
  const writes: { method: string; id?: string; body: Record<string, unknown> }[] = [];
  const previews: Record<string, unknown>[] = [];
  const list = (): DecisionTemplate[] =>
    (['advance', 'reject'] as const).flatMap((kind) =>
      LOCALES.map((language) => {
        const d = defaults(kind, language);
        const mine = own.get(`${kind}:${language}`);
        return {
          id: mine?.id ?? '',
          kind,
          language,
          subject: mine?.subject ?? d.subject,
          body: mine?.body ?? d.body,
          custom: Boolean(mine),
          defaultSubject: d.subject,
          defaultBody: d.body,
        };
      }),
    );
  const refuse = (field: string, code: string, message: string, params?: Record<string, string>) =>
    HttpResponse.json({ status: 400, message: 'The template has errors.', data: { [field]: { code, message, ...(params ? { params } : {}) } } }, { status: 400 });
  const checked = (body: Record<string, unknown>) =>
    String(body.body).includes('{nmae}')
      ? refuse('body', 'validation_unknown_placeholder', '{nmae} is not a placeholder. Use {name}, {job} or {company}.', { placeholder: '{nmae}' })
      : null;
  server.use(
    http.get(api('/api/screenroom/companies/c1/decision-templates'), () => HttpResponse.json({ templates: list() })),
    http.post(api('/api/collections/decision_templates/records'), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      writes.push({ method: 'POST', body });
      const refused = checked(body);
      if (refused) return refused;
      const id = `t${own.size + 1}`;
      own.set(`${String(body.kind)}:${String(body.language)}`, { id, subject: String(body.subject), body: String(body.body) });
      return HttpResponse.json({ id, ...body });
    }),
    http.patch(api('/api/collections/decision_templates/records/:id'), async ({ request, params }) => {
      const body = (await request.json()) as Record<string, unknown>;
      writes.push({ method: 'PATCH', id: String(params.id), body });
      for (const [key, value] of own) if (value.id === params.id) own.set(key, { ...value, subject: String(body.subject), body: String(body.body) });
      return HttpResponse.json({ id: params.id, ...body });
    }),
    http.delete(api('/api/collections/decision_templates/records/:id'), ({ params }) => {
      writes.push({ method: 'DELETE', id: String(params.id), body: {} });
      for (const [key, value] of own) if (value.id === params.id) own.delete(key);
      return new HttpResponse(null, { status: 204 });
    }),
    http.post(api('/api/screenroom/companies/c1/decision-templates/preview'), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      previews.push(body);
      const refused = checked(body);
      if (refused) return refused;
      const fill = (text: unknown) => String(text).replaceAll('{name}', 'Alex').replaceAll('{job}', 'Product Designer').replaceAll('{company}', 'Acme');
      return HttpResponse.json({
        kind: body.kind,
        language: body.language,
        dir: body.language === 'ar' ? 'rtl' : 'ltr',
        to: '',
        subject: fill(body.subject),
        text: `Hello Alex,\n\n${fill(body.body)}\n\nBest wishes,\nAcme`,
      });
    }),
  );
  return { writes, previews };
}

async function openScreen() {
  signInAs({ primaryCompany: 'c1' });
  managerShellApi();
  const calls = templatesApi();
  renderRoute('/companies/c1/decision-messages');
  await screen.findByRole('heading', { level: 1, name: 'Decision messages' });
  return calls;
}

const form = () => screen.getByRole('form', { name: /message in/ });
const languageSelect = () => screen.getByRole('combobox', { name: 'Language' });

describe('Decision messages in the company settings', () => {
  it('shows the default text of each kind and language, saves the company’s own, and gives the default back', async () => {
    const user = userEvent.setup();
    const { writes } = await openScreen();
    expect(await screen.findByRole('form', { name: 'Advance message in English' })).toBeInTheDocument();
    expect(within(form()).getByLabelText('Subject')).toHaveValue('advance subject in en for {job}');
    expect(within(form()).getByTestId('template-source')).toHaveTextContent('Screenroom’s default text');

    await user.click(screen.getByRole('radio', { name: 'Reject' }));
    await user.selectOptions(languageSelect(), 'ar');
    expect(await screen.findByRole('form', { name: 'Reject message in العربية' })).toBeInTheDocument();
    const subject = within(form()).getByLabelText('Subject');
    expect(subject).toHaveAttribute('dir', 'rtl');
    expect(subject).toHaveAttribute('lang', 'ar');
    await user.clear(subject);
    await user.type(subject, 'موضوع {{job}');
    await user.click(within(form()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes).toEqual([{ method: 'POST', body: { company: 'c1', kind: 'reject', language: 'ar', subject: 'موضوع {job}', body: 'reject body in ar at {company}.' } }]));
    expect(await within(form()).findByTestId('template-source')).toHaveTextContent('Your company’s own text.');
    expect(within(languageSelect()).getByRole('option', { name: 'العربية (your text)' })).toBeInTheDocument();

    await user.click(within(form()).getByRole('button', { name: 'Use the default text' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Use the default text?' });
    await user.click(within(dialog).getByRole('button', { name: 'Use the default text' }));
    await waitFor(() => expect(within(form()).getByLabelText('Subject')).toHaveValue('reject subject in ar for {job}'));
    expect(writes.at(-1)).toEqual({ method: 'DELETE', id: 't1', body: {} });
  });

  it('previews the e-mail a text makes, and names a misspelt placeholder under its field', async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { previews, writes } = await openScreen();
    await screen.findByRole('form', { name: 'Advance message in English' });
    const body = within(form()).getByLabelText('Message');
    await user.clear(body);
    await user.type(body, 'Dear {{name}, welcome to {{company}.');
    await user.click(within(form()).getByRole('button', { name: 'Preview' }));
    const preview = await within(form()).findByTestId('message-preview');
    expect(within(preview).getByTestId('preview-subject')).toHaveTextContent('advance subject in en for Product Designer');
    expect(within(preview).getByTestId('preview-text').textContent).toBe('Hello Alex,\n\nDear Alex, welcome to Acme.\n\nBest wishes,\nAcme');
    expect(previews).toEqual([{ kind: 'advance', language: 'en', subject: 'advance subject in en for {job}', body: 'Dear {name}, welcome to {company}.' }]);
    // a preview of other words would mislead: it goes as soon as the text changes
    await user.type(body, ' {{nmae}');
    expect(within(form()).queryByTestId('message-preview')).toBeNull();

    await user.click(within(form()).getByRole('button', { name: 'Save' }));
    expect(await within(form()).findByText('{nmae} is not a placeholder. Use {name}, {job} or {company}.')).toBeInTheDocument();
    expect(body).toHaveAttribute('aria-invalid', 'true');
    // what was typed stays
    expect(body).toHaveValue('Dear {name}, welcome to {company}. {nmae}');
    expect(writes).toHaveLength(1);

    // blank fields are said without asking the server
    await user.clear(within(form()).getByLabelText('Subject'));
    await user.click(within(form()).getByRole('button', { name: 'Save' }));
    expect(await within(form()).findByText('Write a subject.')).toBeInTheDocument();
    expect(writes).toHaveLength(1);
  });

  it('keeps unsaved words of one text while the manager looks at another', async () => {
    const user = userEvent.setup();
    const { writes } = await openScreen();
    await screen.findByRole('form', { name: 'Advance message in English' });
    const body = within(form()).getByLabelText('Message');
    await user.clear(body);
    await user.type(body, 'Half-written');
    expect(within(languageSelect()).getByRole('option', { name: 'English (unsaved changes)' })).toBeInTheDocument();

    await user.selectOptions(languageSelect(), 'de');
    expect(await screen.findByRole('form', { name: 'Advance message in Deutsch' })).toBeInTheDocument();
    expect(within(form()).getByLabelText('Message')).toHaveValue('advance body in de at {company}.');
    await user.selectOptions(languageSelect(), 'en');
    expect(await screen.findByRole('form', { name: 'Advance message in English' })).toBeInTheDocument();
    expect(within(form()).getByLabelText('Message')).toHaveValue('Half-written');
    expect(writes).toEqual([]);
  });
});
