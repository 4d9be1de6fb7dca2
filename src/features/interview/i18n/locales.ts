// The language list moved to src/lib/locales.ts, shared with the job form's 'Candidate language' select; the
// interview's modules and the catalogs' check (scripts/translations.test.ts) still import it from here. A relative
// path: the scripts' TypeScript project has no '@/' alias.
export * from '../../../lib/locales';
