// The language list moved to src/lib/locales.ts, shared with the job form's 'Candidate language' select; the
// interview's modules still import it from here.
export * from '@/lib/locales';
