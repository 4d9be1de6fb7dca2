import { http, HttpResponse } from 'msw';

import { Collections, type CompaniesResponse, type JobsResponse } from '@/lib/pocketbase-types';

import { server } from './msw-server';

/** A list as PocketBase answers the SDK's getFullList: one page of up to 1000, with skipTotal (no counts, so -1). */
export function fullList<T>(items: T[]) {
  return { page: 1, perPage: 1000, totalItems: -1, totalPages: -1, items };
}

/** A company as the server stores it; by default c1, Acme, owned and managed by the test user (buildUser's u1). */
export function buildCompany(overrides: Partial<CompaniesResponse> = {}): CompaniesResponse {
  return {
    id: 'c1',
    collectionId: 'companies',
    collectionName: Collections.Companies,
    name: 'Acme',
    website: 'https://acme.example.com',
    privacyUrl: '',
    logo: 'logo_acme.png',
    managers: ['u1'],
    owner: 'u1',
    retentionMonths: 0,
    timeZone: '',
    mailFooterOff: false,
    created: '2024-01-01 00:00:00.000Z',
    updated: '2024-01-01 00:00:00.000Z',
    ...overrides,
  };
}

/**
 * The reads the manager shell starts besides its screen's own, for a user with a primary company: the company
 * switcher's list of the user's companies (which the shell's route loader also prefetches, src/app/prefetch.ts), and
 * the company home's jobs list (its loader prefetches it, e.g. when a sign-in sends the user home).
 * By default the user manages c1 only, and c1 has no jobs yet; the jobs list's candidate counts are all zero.
 */
export function managerShellApi({
  companies = [buildCompany()],
  jobs = [],
}: { companies?: CompaniesResponse[]; jobs?: JobsResponse[] } = {}) {
  server.use(
    http.get('*/api/collections/companies/records', () => HttpResponse.json(fullList(companies))),
    http.get('*/api/screenroom/companies/:companyId/jobs', () => HttpResponse.json(jobs)),
    http.get('*/api/screenroom/companies/:companyId/job-counts', () => HttpResponse.json({ jobs: {} })),
  );
}
