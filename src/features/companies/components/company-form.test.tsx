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
    expect(onSubmit.mock.calls[0]![0]).toEqual({ name: 'Acme', website: 'https://acme.example.com', privacyUrl: '', logo });
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
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: 'Acme', website: 'https://acme.example.com', privacyUrl: '', logo: 'logo_abc.png' }));
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
    });
  });
});
