import { queryOptions, type QueryClient } from '@tanstack/react-query';

import { takeEarlyRead } from '@/lib/early-read';
import { candidateOptions, pb } from '@/lib/pocketbase';

export type InterviewQuestion = {
  id: string;
  title: string;
  description: string;
  /** The answer time in seconds the candidate has, any extra time granted included (the base when `untimed`). */
  timeout: number;
  /** Unlimited time was granted: no countdown, no length limit, and a video take starts when the candidate is ready. */
  untimed?: boolean;
  /** Video only: the preparation time in seconds between 'View question' and the recording (0 for text). */
  preparation?: number;
  /** When the question was first opened (PocketBase's date text; '' when never): its time runs from then. */
  openedAt?: string;
  canPreview: boolean;
  kind: 'video' | 'text';
  /** Video only: how many takes the candidate may record (at least 1). */
  takes: number;
  /** Video only: the takes the server counted so far (a reload gives none back). */
  takesUsed?: number;
  /** Video only: the take the server keeps, recorded and never submitted (issue 22). */
  keptTake?: KeptTake | null;
};

/** A take the server keeps for the candidate: its parts contiguous from 0 make `bytes`. */
export type KeptTake = {
  id: string;
  bytes: number;
  /** Its length as the device last reported it (0: unknown). */
  recordedMs: number;
  /** Stopped by the candidate; false when it was cut off while recording. */
  finished: boolean;
  /** When its last part arrived (PocketBase's date text). */
  savedAt: string;
};

export type InterviewClosed = {
  reason: 'deadline' | 'withdrawn' | 'job_closed';
  /** The deadline, when the invitation was withdrawn, or when the job was closed (PocketBase's date text). */
  at: string;
};

export type Interview = {
  candidateId: string;
  companyName: string;
  /** The company's logo, a path on the server ('' when none). */
  companyLogoUrl: string;
  /** The company's privacy page ('' when none). */
  privacyUrl: string;
  jobTitle: string;
  /** The manager's welcome to the job's candidates, plain text ('' when none). */
  welcomeMessage: string;
  /** When the candidate ticked 'I agree' on the start screen ('' before: nothing is recorded then). */
  consentedAt: string;
  /** The server's clock when it answered (PocketBase's date text). */
  serverNow?: string;
  /** The last moment to answer (PocketBase's date text; '' when there is none). */
  deadline?: string;
  /** Set once the interview can no longer be answered: the deadline passed, or the company withdrew the invitation. */
  closed?: InterviewClosed | null;
  /** In the job's order (none once closed). */
  questions: InterviewQuestion[];
  /** Questions the server holds an answer for. */
  answeredQuestionIds: string[];
  /** The job's language ('en' when the manager chose none): the screens' language unless the candidate chose one. */
  language?: string;
  /** The candidate's own choice of language, remembered by the server for their link ('' when none). */
  candidateLanguage?: string;
  /** How many months the company keeps answers (0: until the company deletes them). */
  retentionMonths?: number;
  /**
   * Set when the candidate withdrew and their answers were deleted (PocketBase's date text): the server then answers
   * with it and `language` only, and every other field here is empty.
   */
  withdrawnAt?: string;
};

/** The server's read of a link whose candidate withdrew: nothing of the interview is left to say. */
type WithdrawnRead = { withdrawnAt: string; language?: string };

function isWithdrawnRead(read: Interview | WithdrawnRead): read is WithdrawnRead {
  return typeof read.withdrawnAt === 'string' && read.withdrawnAt !== '' && !Array.isArray((read as Partial<Interview>).questions);
}

/** A withdrawn link as an interview with nothing in it, so no screen meets a field that is not there. */
export function withdrawnInterview(withdrawnAt: string, language = ''): Interview {
  return {
    candidateId: '',
    companyName: '',
    companyLogoUrl: '',
    privacyUrl: '',
    jobTitle: '',
    welcomeMessage: '',
    consentedAt: '',
    questions: [],
    answeredQuestionIds: [],
    language,
    candidateLanguage: '',
    withdrawnAt,
  };
}

function fromRead(read: Interview | WithdrawnRead): Interview {
  return isWithdrawnRead(read) ? withdrawnInterview(read.withdrawnAt, read.language) : read;
}

/**
 * Everything the interview screens need, read with only the candidate's key (the link's last part, also in the X-Candidate-Key header), in one
 * request: the server's interview route (server/internal/interview) answers with the job's questions in
 * the job's order, each with its kind, and the questions already answered. An unknown id answers 404.
 */
export async function getInterview(candidateId: string, signal?: AbortSignal): Promise<Interview> {
  const path = `/api/screenroom/interviews/${encodeURIComponent(candidateId)}`;
  // the first read of a page load may already be under way from index.html
  const early = await takeEarlyRead<Interview | WithdrawnRead>(path);
  if (early) return fromRead(early);
  return fromRead(await pb.send<Interview | WithdrawnRead>(path, candidateOptions(candidateId, { method: 'GET', signal })));
}

export const interviewQueries = {
  all: () => ['interview'] as const,
  details: () => [...interviewQueries.all(), 'detail'] as const,
  detail: (candidateId: string) =>
    queryOptions({
      queryKey: [...interviewQueries.details(), candidateId] as const,
      queryFn: ({ signal }) => getInterview(candidateId, signal),
    }),
};

/**
 * Cancels the reads of the interview on their way, before what this page just did is written into it
 * (setQueryData): one answered by the server before the change would, arriving after it, undo it.
 */
export function cancelInterviewReads(queryClient: QueryClient, candidateId: string): Promise<void> {
  return queryClient.cancelQueries({ queryKey: interviewQueries.detail(candidateId).queryKey });
}

/** The first question with neither a server answer nor one waiting to upload; undefined when all are done. */
export function nextUnanswered(interview: Interview, pendingQuestionIds: readonly string[]): InterviewQuestion | undefined {
  const done = new Set([...interview.answeredQuestionIds, ...pendingQuestionIds]);
  return interview.questions.find((question) => !done.has(question.id));
}

/** The first open question after `questionId` in the job's order (a skipped one stays behind); undefined at the end. */
export function nextUnansweredAfter(
  interview: Interview,
  pendingQuestionIds: readonly string[],
  questionId: string,
): InterviewQuestion | undefined {
  const done = new Set([...interview.answeredQuestionIds, ...pendingQuestionIds]);
  const index = interview.questions.findIndex((question) => question.id === questionId);
  return interview.questions.slice(index + 1).find((question) => !done.has(question.id));
}

/** Whether a video question is still open: only then are the camera and microphone checked. */
export function hasOpenVideoQuestion(interview: Interview, pending: readonly string[]): boolean {
  return interview.questions.some(
    (q) => q.kind === 'video' && !interview.answeredQuestionIds.includes(q.id) && !pending.includes(q.id),
  );
}

/** The questions' time limits added up, in whole minutes rounded up: "about 9 minutes" on the start screen. */
export function totalAnswerMinutes(interview: Pick<Interview, 'questions'>): number {
  const seconds = interview.questions.reduce((sum, q) => sum + Math.max(0, q.timeout), 0);
  return Math.ceil(seconds / 60);
}
