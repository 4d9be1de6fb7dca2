import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { renderWithProviders } from '@/testing/render-route';

import { CompanyForm } from './company-form';

function setup(props: Partial<Parameters<typeof CompanyForm>[0]> = {}) {
  const onSubmit = vi.fn<(values: unknown) => Promise<unknown>>().mockResolvedValue(undefined);
  renderWithProviders(<CompanyForm submitLabel="Create Company" onSubmit={onSubmit} {...props} />);
  return { onSubmit, user: userEvent.setup() };
}

const png = (name = 'logo.png', bytes = 10) => new File([new Uint8Array(bytes)], name, { type: 'image/png' });

// jsdom has no object URLs: the preview gets a recognisable stand-in
beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:preview');
  URL.revokeObjectURL = vi.fn();
});

describe('CompanyForm', () => {
  it('shows every required message under its field and submits nothing', async () => {
    const { onSubmit, user } = setup();
    await user.click(screen.getByRole('button', { name: 'Create Company' }));
    expect(await screen.findByText('Company name is required')).toBeInTheDocument();
    expect(screen.getByText('Company website is required')).toBeInTheDocument();
    expect(screen.getByText('Company logo is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it.each(['acme', 'not a url', 'ftp://acme.com', 'https://localhost'])('refuses the website %s', async (website) => {
    const { user } = setup();
    await user.type(screen.getByLabelText('Website'), website);
    await user.click(screen.getByRole('button', { name: 'Create Company' }));
    expect(await screen.findByText('Invalid website URL')).toBeInTheDocument();
  });

  it('refuses a logo that is not an image, and one over 5 MB', async () => {
    setup();
    // the picker's accept= filter can be bypassed (drag and drop, "all files"): the schema still refuses
    const user = userEvent.setup({ applyAccept: false });
    const input = screen.getByLabelText('Logo');
    await user.upload(input, new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    await user.click(screen.getByRole('button', { name: 'Create Company' }));
    expect(await screen.findByText('The logo must be a PNG, JPEG, WebP or GIF image')).toBeInTheDocument();
    await user.upload(input, png('big.png', 5 * 1024 * 1024 + 1));
    await user.click(screen.getByRole('button', { name: 'Create Company' }));
    expect(await screen.findByText('The logo must be at most 5 MB')).toBeInTheDocument();
  });

  it('submits trimmed values with the picked logo, and shows its preview', async () => {
    const { onSubmit, user } = setup();
    const logo = png();
    await user.upload(screen.getByLabelText('Logo'), logo);
    expect(screen.getByRole('img', { name: 'Company logo preview' })).toHaveAttribute('src', expect.stringMatching(/^blob:/));
    await user.type(screen.getByLabelText('Name'), '  Acme  ');
    await user.type(screen.getByLabelText('Website'), 'https://acme.example.com');
    await user.click(screen.getByRole('button', { name: 'Create Company' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    // a new company's e-mails start in UTC with the footer (the form shows neither)
    expect(onSubmit.mock.calls[0]![0]).toEqual({ name: 'Acme', website: 'https://acme.example.com', privacyUrl: '', logo, timeZone: '', mailFooterOff: false });
    expect(screen.queryByLabelText('Time zone')).not.toBeInTheDocument();
  });

  it('keeps the stored logo (a file name) when editing without picking a new one', async () => {
    const { onSubmit, user } = setup({
      defaultValues: { name: 'Acme', website: 'https://acme.example.com', logo: 'logo_abc.png' },
      storedLogoUrl: 'http://127.0.0.1:8090/api/files/companies/c1/logo_abc.png',
      submitLabel: 'Update Company',
    });
    expect(screen.getByRole('img', { name: 'Company logo preview' })).toHaveAttribute(
      'src',
      'http://127.0.0.1:8090/api/files/companies/c1/logo_abc.png',
    );
    await user.click(screen.getByRole('button', { name: 'Update Company' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({ name: 'Acme', website: 'https://acme.example.com', privacyUrl: '', logo: 'logo_abc.png', timeZone: '', mailFooterOff: false }),
    );
  });

  it("puts the server's field error under its field and keeps what was typed", async () => {
    const { ClientResponseError } = await import('pocketbase');
    const onSubmit = vi.fn().mockRejectedValue(
      new ClientResponseError({
        status: 400,
        response: { message: 'Failed to create record.', data: { website: { code: 'validation_invalid_url', message: 'Must be a valid url.' } } },
      }),
    );
    const { user } = setup({ onSubmit });
    await user.upload(screen.getByLabelText('Logo'), png());
    await user.type(screen.getByLabelText('Name'), 'Acme');
    await user.type(screen.getByLabelText('Website'), 'https://acme.example.com');
    await user.click(screen.getByRole('button', { name: 'Create Company' }));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await screen.findByText('Please enter a valid web address.')).toBeInTheDocument();
    expect(screen.queryByText(/Must be a valid url/)).not.toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('Acme');
  });

  it('takes an optional privacy policy URL, and refuses one that is not a web address', async () => {
    const { onSubmit, user } = setup();
    const logo = png();
    await user.upload(screen.getByLabelText('Logo'), logo);
    await user.type(screen.getByLabelText('Name'), 'Acme');
    await user.type(screen.getByLabelText('Website'), 'https://acme.example.com');
    await user.type(screen.getByLabelText('Privacy policy URL (optional)'), 'not a url');
    await user.click(screen.getByRole('button', { name: 'Create Company' }));
    expect(await screen.findByText('Invalid privacy policy URL')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
    await user.clear(screen.getByLabelText('Privacy policy URL (optional)'));
    await user.type(screen.getByLabelText('Privacy policy URL (optional)'), 'https://acme.example.com/privacy');
    await user.click(screen.getByRole('button', { name: 'Create Company' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      name: 'Acme',
      website: 'https://acme.example.com',
      privacyUrl: 'https://acme.example.com/privacy',
      logo,
      timeZone: '',
      mailFooterOff: false,
    });
  });
});

describe("CompanyForm's e-mail settings (the settings screen)", () => {
  const stored = { name: 'Acme', website: 'https://acme.example.com', privacyUrl: '', logo: 'logo_abc.png' };
  const edit = (values: Partial<Parameters<typeof CompanyForm>[0]['defaultValues']> = {}, onSubmit?: (values: unknown) => Promise<unknown>) =>
    setup({ defaultValues: { ...stored, timeZone: '', mailFooterOff: false, ...values }, submitLabel: 'Update Company', mailSettings: true, ...(onSubmit ? { onSubmit } : {}) });

  it('offers UTC (the default) and every IANA zone of the browser, says that e-mails state times in it, and saves the one chosen with the footer choice', async () => {
    const { onSubmit, user } = edit();
    const select = screen.getByRole('combobox', { name: 'Time zone' });
    expect(select).toHaveValue('');
    const options = Array.from((select as HTMLSelectElement).options);
    expect(options[0]).toHaveTextContent(/^UTC$/);
    expect(options.slice(1).map((option) => option.value)).toEqual(Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC'));
    expect(options.find((option) => option.value === 'America/New_York')).toHaveTextContent('America/New York');
    expect(screen.getByText(/^E-mails state times, such as an invitation's deadline, in this time zone, with its name\./)).toBeInTheDocument();

    const footer = screen.getByRole('checkbox', { name: 'Leave the Screenroom line out of e-mails' });
    expect(footer).not.toBeChecked();
    await user.selectOptions(select, 'Europe/Berlin');
    await user.click(footer);
    await user.click(screen.getByRole('button', { name: 'Update Company' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ ...stored, timeZone: 'Europe/Berlin', mailFooterOff: true }));
  });

  it('starts from the stored settings, and keeps a stored zone this browser does not list', async () => {
    const { onSubmit, user } = edit({ timeZone: 'Asia/Calcutta', mailFooterOff: true });
    expect(screen.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Asia/Calcutta');
    expect(screen.getByRole('checkbox', { name: 'Leave the Screenroom line out of e-mails' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Update Company' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ ...stored, timeZone: 'Asia/Calcutta', mailFooterOff: true }));
  });

  it("shows the server's refusal of the zone under the select, in its words, and keeps every choice", async () => {
    const { ClientResponseError } = await import('pocketbase');
    const onSubmit = vi.fn().mockRejectedValue(
      new ClientResponseError({
        status: 400,
        response: {
          message: 'Choose a time zone from the list.',
          data: { timeZone: { code: 'validation_time_zone', message: 'Choose a time zone from the list.' } },
        },
      }),
    );
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = edit({}, onSubmit);
    const select = screen.getByRole('combobox', { name: 'Time zone' });
    await user.selectOptions(select, 'Pacific/Chatham');
    await user.click(screen.getByRole('checkbox', { name: 'Leave the Screenroom line out of e-mails' }));
    await user.click(screen.getByRole('button', { name: 'Update Company' }));
    await waitFor(() => expect(select).toHaveAttribute('aria-invalid', 'true'));
    expect(select).toHaveAccessibleDescription('Choose a time zone from the list.');
    expect(screen.getByRole('alert')).toHaveTextContent('Choose a time zone from the list.');
    expect(select).toHaveValue('Pacific/Chatham');
    expect(screen.getByRole('checkbox', { name: 'Leave the Screenroom line out of e-mails' })).toBeChecked();
    expect(screen.getByLabelText('Name')).toHaveValue('Acme');
  });
});
