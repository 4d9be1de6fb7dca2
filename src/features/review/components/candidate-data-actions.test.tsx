import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { pb } from '@/lib/pocketbase';
import { server } from '@/testing/msw-server';
import { renderWithProviders } from '@/testing/render-route';

import { EraseCandidateButton, erasureText, ExportCandidateButton } from './candidate-data-actions';

afterEach(() => {
  vi.restoreAllMocks();
  pb.authStore.clear();
});

describe("'Export data' (issue 19)", () => {
  it("downloads the zip with the manager's token, named after the candidate", async () => {
    pb.authStore.save('manager-token', null);
    const seen: (string | null)[] = [];
    server.use(
      http.get('*/api/screenroom/candidates/k1/export', ({ request }) => {
        seen.push(request.headers.get('Authorization'));
        return new HttpResponse(new Uint8Array([0x50, 0x4b, 5, 6]), { headers: { 'Content-Type': 'application/zip' } });
      }),
    );
    const createObjectURL = vi.fn(() => 'blob:export');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(`${this.download} ${this.href}`);
    });
    const user = userEvent.setup();
    renderWithProviders(<ExportCandidateButton candidateId="k1" />);

    await user.click(screen.getByRole('button', { name: 'Export data' }));
    await expect.poll(() => downloads).toEqual(['candidate-k1.zip blob:export']);
    expect(seen).toEqual(['manager-token']);
  });

  it('says in plain words when the export is refused', async () => {
    server.use(http.get('*/api/screenroom/candidates/k1/export', () => HttpResponse.json({ status: 404, message: 'x', data: {} }, { status: 404 })));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    renderWithProviders(<ExportCandidateButton candidateId="k1" />);
    await user.click(screen.getByRole('button', { name: 'Export data' }));
    expect(await screen.findByText(/This item doesn't exist any more/)).toBeInTheDocument();
  });
});

describe("'Erase candidate' (issue 19)", () => {
  it('says plainly that everything goes and it cannot be undone, erases on confirmation, then leaves the review', async () => {
    const erased: string[] = [];
    server.use(
      http.post('*/api/screenroom/candidates/k1/erase', ({ request }) => {
        erased.push(request.method);
        return HttpResponse.json({ answers: 2, videos: 1 });
      }),
    );
    const onErased = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<EraseCandidateButton candidateId="k1" jobId="j1" email="ana@example.com" onErased={onErased} />);

    await user.click(screen.getByRole('button', { name: 'Erase candidate' }));
    expect(await screen.findByText(erasureText('ana@example.com'))).toBeInTheDocument();
    expect(erasureText('ana@example.com')).toContain('removes everything and cannot be undone');
    expect(erased).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Erase everything' }));
    await expect.poll(() => onErased.mock.calls.length).toBe(1);
    expect(erased).toEqual(['POST']);
  });

  it('erases nothing on Cancel', async () => {
    const erased: string[] = [];
    server.use(http.post('*/api/screenroom/candidates/k1/erase', () => (erased.push('x'), HttpResponse.json({}))));
    const user = userEvent.setup();
    renderWithProviders(<EraseCandidateButton candidateId="k1" jobId="j1" email="ana@example.com" onErased={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Erase candidate' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(erased).toEqual([]);
  });
});
