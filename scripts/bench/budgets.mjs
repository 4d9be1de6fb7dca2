// The budgets (first visit bytes, LCP, read p95 at any --scale), and the checks of the figures against them.
import { ONLY } from "./options.mjs";

const BUDGETS = {
  // first visit bytes, gzip, inline scripts and styles included: React DOM as published, a client-only SPA
  candidateJsGzip: 160 * 1024,
  candidateCssGzip: 16 * 1024,
  signInJsGzip: 170 * 1024,
  companyHomeJsGzip: 185 * 1024,
  companyHomeCssGzip: 30 * 1024,
  // Largest Contentful Paint, Lighthouse mobile, simulated throttling
  lcpMs: { candidate: 2200, signIn: 2200, companyHome: 2500 },
  // issue 20: every screen's read at --scale=10 as at 1; the transcript search (issue 18's routes) has its own
  p95Ms: 20,
  searchP95Ms: 50,
  // the hiring funnel's figures of a job and of the company at 30,000 candidates (scripts/bench/analytics.mjs)
  analyticsP95Ms: 50,
  lighthouseScore: 90,
  uploadRatio: 1.3,
  requestsPerJobOpening: 6,
  heapGrowthMb: 5,
};

/**
 * One check per budget: its name, the figure, the limit and whether the figure keeps to it. A figure that was not
 * measured misses its budget, unless `--only` left its part out: then the check is skipped.
 */
export function evaluate(f) {
  const checks = [];
  const add = (name, value, limit, ok) => {
    const measured = value !== null && value !== undefined;
    checks.push({ name, value, limit, ok: measured && ok, ...(ONLY && !measured ? { skipped: true } : {}) });
  };
  const cand = f.bytes.candidate;
  add("candidate first visit JS gzip (bytes)", cand?.js.gzip, `<= ${BUDGETS.candidateJsGzip}`, cand?.js.gzip <= BUDGETS.candidateJsGzip);
  add("candidate first visit CSS gzip (bytes)", cand?.css.gzip, `<= ${BUDGETS.candidateCssGzip}`, cand?.css.gzip <= BUDGETS.candidateCssGzip);
  add("candidate first visit manager chunks", cand?.managerChunks.length, "0", cand?.managerChunks.length === 0);
  const signIn = f.bytes.signIn;
  add("sign-in first visit JS gzip (bytes)", signIn?.js.gzip, `<= ${BUDGETS.signInJsGzip}`, signIn?.js.gzip <= BUDGETS.signInJsGzip);
  const home = f.bytes.companyHome;
  add("company home first visit JS gzip (bytes)", home?.js.gzip, `<= ${BUDGETS.companyHomeJsGzip}`, home?.js.gzip <= BUDGETS.companyHomeJsGzip);
  add("company home first visit CSS gzip (bytes)", home?.css.gzip, `<= ${BUDGETS.companyHomeCssGzip}`, home?.css.gzip <= BUDGETS.companyHomeCssGzip);
  for (const [name, l] of Object.entries(f.latency)) {
    const limit = name.startsWith("search") ? BUDGETS.searchP95Ms : BUDGETS.p95Ms;
    add(`${name} p95 (ms)`, l.p95, `<= ${limit}`, l.p95 <= limit && l.errors === 0);
  }
  for (const name of ["candidate", "signIn", "companyHome"]) {
    const score = f.lighthouse?.[name]?.score;
    add(`Lighthouse performance, ${name}`, score, `>= ${BUDGETS.lighthouseScore}`, score >= BUDGETS.lighthouseScore);
    const lcp = f.lighthouse?.[name]?.lcpMs;
    add(`Lighthouse LCP, ${name} (ms)`, lcp, `<= ${BUDGETS.lcpMs[name]}`, lcp <= BUDGETS.lcpMs[name]);
  }
  const an = f.analytics;
  for (const name of ["underLoad", "companyRead", "jobRead", "companyAfterWrite", "refreshAfterWrite"]) {
    const figure = an?.[name];
    add(`analytics ${name} p95 (ms)`, figure?.p95, `<= ${BUDGETS.analyticsP95Ms}`, figure?.p95 <= BUDGETS.analyticsP95Ms && !figure?.errors);
  }
  add("upload ratio (stop→confirmed / plain multipart)", f.upload?.ratio, `<= ${BUDGETS.uploadRatio}`, f.upload?.ratio <= BUDGETS.uploadRatio);
  const ms = f.managerSession;
  add("manager session: most API requests to open one job", ms?.requestsPerOpening.max, `<= ${BUDGETS.requestsPerJobOpening}`, ms?.requestsPerOpening.max <= BUDGETS.requestsPerJobOpening);
  add("manager session: heap growth over 20 jobs (MB)", ms?.heapMb.growth, `<= ${BUDGETS.heapGrowthMb}`, ms?.heapMb.growth <= BUDGETS.heapGrowthMb);
  return checks;
}
