import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { renderInEnglish } from '../i18n/testing';

import { InterviewClosedPage } from './interview-closed';

describe('the closed interview page', () => {
  it("says politely that the company closed the job (issue 19), with the day, and offers nothing that would fail", () => {
    renderInEnglish(<InterviewClosedPage interview={{ companyName: 'Acme' }} closed={{ reason: 'job_closed', at: '2026-11-24 10:00:00.000Z' }} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Acme has closed this job' })).toBeInTheDocument();
    expect(screen.getByText(/The interview for this job no longer takes answers \(closed on .*2026\)\. Thank you for your interest in Acme and for your time\./)).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('keeps the words of a withdrawn invitation', () => {
    renderInEnglish(<InterviewClosedPage interview={{ companyName: 'Acme' }} closed={{ reason: 'withdrawn', at: '2026-11-24 10:00:00.000Z' }} />);
    expect(screen.getByRole('heading', { level: 1, name: 'This interview is no longer open' })).toBeInTheDocument();
    expect(screen.getByText('Acme has closed this invitation. Thank you for your time.')).toBeInTheDocument();
  });
});
