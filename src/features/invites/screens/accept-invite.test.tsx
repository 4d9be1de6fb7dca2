import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { renderRoute } from '@/testing/render-route';

const KEY = 'k'.repeat(20) + 'K'.repeat(20);

describe('the invite link, signed out', () => {
  it("signs up with the invite's key, the e-mail fixed, and signs in coming back to the invite", async () => {
    renderRoute(`/invites/i1/ada%40example.com?key=${KEY}`);
    expect(await screen.findByText(/invited to manage a company on Screenroom as ada@example.com/)).toBeInTheDocument();
    // the key, which only the invite e-mail carries, verifies the new account (rule 5); the id would not do
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute(
      'href',
      `/auth/sign-up?invite=${KEY}&email=ada%40example.com`,
    );
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/auth/sign-in?redirect=%2Finvites%2Fi1%2Fada%2540example.com',
    );
  });

  it('without a key (a link e-mailed before invites had one) offers a plain sign-up', async () => {
    renderRoute('/invites/i1/ada%40example.com');
    expect(await screen.findByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/auth/sign-up');
  });
});
