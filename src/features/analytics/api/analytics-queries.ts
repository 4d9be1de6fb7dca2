import { queryOptions } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';

/** A duration's figures over the completed candidates that have both of its stamps (nearest-rank percentiles). */
export type DurationFigures = { candidates: number; medianSeconds: number | null; p90Seconds: number | null };

/**
 * A job's or a company's hiring funnel as the server computes it (server/internal/analytics/routes.go): the stages
 * are counted as reached, so each holds the ones after it (decided stands apart).
 */
export type AnalyticsFigures = {
  scope: 'job' | 'company';
  id: string;
  title: string;
  /** Every write committed before it is counted: the server's time of the read, or when kept figures were computed. */
  asOf: string;
  /**
   * Some figures were kept from before a write they do not count yet (at most a minute old): the server is counting
   * them again, and a read in a moment has them.
   */
  refreshing: boolean;
  /** The company's time zone, in which the invite weeks are cut. */
  timeZone: string;
  funnel: { invited: number; linkOpened: number; agreed: number; started: number; completed: number; decided: number };
  decisions: { advance: number; hold: number; reject: number };
  /** A job's questions in its order (position from 1); a company's over all its jobs (position 0), most stopped first. */
  questions: { id: string; title: string; position: number; reached: number; answered: number; stopped: number }[];
  /** From the first question opened to the completion. */
  timeToComplete: DurationFigures;
  /** From the invite to the completion. */
  inviteToComplete: DurationFigures;
  /** Each week (its Monday) from the first invite's to the last's, the latest 52. */
  weeks: { week: string; invited: number; completed: number }[];
  /** The invites of the weeks before those listed, summed. */
  earlierWeeks: { before: string; invited: number; completed: number } | null;
  reminders: {
    reminded: { candidates: number; completed: number; completedAfter: number };
    notReminded: { candidates: number; completed: number };
  };
  /** A company's figures only: each of its jobs. */
  jobs?: { id: string; title: string; archived: boolean; closed: boolean; invited: number; started: number; completed: number; decided: number }[];
};

export function jobAnalyticsPath(jobId: string): string {
  return `/api/screenroom/jobs/${encodeURIComponent(jobId)}/analytics`;
}

export function companyAnalyticsPath(companyId: string): string {
  return `/api/screenroom/companies/${encodeURIComponent(companyId)}/analytics`;
}

function getAnalytics(path: string, signal: AbortSignal | undefined, latest: boolean): Promise<AnalyticsFigures> {
  return pb.send<AnalyticsFigures>(latest ? `${path}?fresh=1` : path, { method: 'GET', signal, requestKey: null });
}

/** How soon figures the server is counting again are read again. */
const REREAD_MS = 1500;

const rereadWhileRefreshing = (query: { state: { data?: AnalyticsFigures } }) => (query.state.data?.refreshing ? REREAD_MS : false);

/** `latest` (the Refresh button) has the server count every write before it answers. */
export const analyticsQueries = {
  all: () => ['analytics'] as const,
  job: (jobId: string, latest = false) =>
    queryOptions({
      queryKey: [...analyticsQueries.all(), 'job', jobId] as const,
      queryFn: ({ signal }) => getAnalytics(jobAnalyticsPath(jobId), signal, latest),
      refetchInterval: rereadWhileRefreshing,
    }),
  company: (companyId: string, latest = false) =>
    queryOptions({
      queryKey: [...analyticsQueries.all(), 'company', companyId] as const,
      queryFn: ({ signal }) => getAnalytics(companyAnalyticsPath(companyId), signal, latest),
      refetchInterval: rereadWhileRefreshing,
    }),
};
