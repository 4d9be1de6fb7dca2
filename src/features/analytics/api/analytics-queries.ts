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
  /** The server's time of the read: every write committed before it is counted. */
  asOf: string;
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

function getAnalytics(path: string, signal?: AbortSignal): Promise<AnalyticsFigures> {
  return pb.send<AnalyticsFigures>(path, { method: 'GET', signal, requestKey: null });
}

export const analyticsQueries = {
  all: () => ['analytics'] as const,
  job: (jobId: string) =>
    queryOptions({
      queryKey: [...analyticsQueries.all(), 'job', jobId] as const,
      queryFn: ({ signal }) => getAnalytics(jobAnalyticsPath(jobId), signal),
    }),
  company: (companyId: string) =>
    queryOptions({
      queryKey: [...analyticsQueries.all(), 'company', companyId] as const,
      queryFn: ({ signal }) => getAnalytics(companyAnalyticsPath(companyId), signal),
    }),
};
