import { queryOptions } from '@tanstack/react-query';

import { candidateOptions, pb } from '@/lib/pocketbase';
import {
  Collections,
  type CandidatesResponse,
  type CompaniesResponse,
  type JobsResponse,
  type QuestionsResponse,
  type TextQuestionsResponse,
  type VideoQuestionsResponse,
} from '@/lib/pocketbase-types';

export type InterviewQuestion = {
  id: string;
  title: string;
  description: string;
  timeout: number;
  canPreview: boolean;
  kind: 'video' | 'text';
  /** Video only: how many takes the candidate may record (at least 1). */
  takes: number;
};

export type Interview = {
  candidateId: string;
  companyName: string;
  jobTitle: string;
  /** In the job's order. */
  questions: InterviewQuestion[];
  /** Questions the server holds an answer for. */
  answeredQuestionIds: string[];
};

type QuestionExpand = {
  video_questions_via_question?: VideoQuestionsResponse | VideoQuestionsResponse[];
  text_questions_via_question?: TextQuestionsResponse | TextQuestionsResponse[];
};
type CandidateExpand = {
  job?: JobsResponse<{ company?: CompaniesResponse; questions?: QuestionsResponse<QuestionExpand>[] }>;
};

const EXPAND = [
  'job.company',
  'job.questions',
  'job.questions.video_questions_via_question',
  'job.questions.text_questions_via_question',
].join(',');

function first<T>(value: T | T[] | undefined): T | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function toQuestion(question: QuestionsResponse<QuestionExpand>): InterviewQuestion {
  const video = first(question.expand?.video_questions_via_question);
  const text = first(question.expand?.text_questions_via_question);
  if (!video && !text) throw new Error('Invalid question type');
  return {
    id: question.id,
    title: question.title,
    description: question.description,
    timeout: question.timeout,
    canPreview: question.canPreview,
    kind: video ? 'video' : 'text',
    takes: video ? Math.max(1, video.takes) : 1,
  };
}

/** Everything the interview screens need, read with only the candidate's id (the X-Candidate-Id header). */
export async function getInterview(candidateId: string, signal?: AbortSignal): Promise<Interview> {
  const [candidate, answers] = await Promise.all([
    pb
      .collection(Collections.Candidates)
      .getOne<CandidatesResponse<CandidateExpand>>(candidateId, candidateOptions(candidateId, { signal, expand: EXPAND })),
    pb.collection(Collections.Answers).getFullList(
      candidateOptions(candidateId, {
        signal,
        filter: pb.filter('candidate = {:candidate}', { candidate: candidateId }),
        fields: 'id,question',
      }),
    ),
  ]);
  const job = candidate.expand?.job;
  const byId = new Map((job?.expand?.questions ?? []).map((question) => [question.id, question]));
  // The expand may come back in any order; the job's own list is the order the candidate answers in.
  const questions = (job?.questions ?? []).flatMap((id) => {
    const question = byId.get(id);
    return question ? [toQuestion(question)] : [];
  });
  return {
    candidateId,
    companyName: job?.expand?.company?.name ?? '',
    jobTitle: job?.title ?? '',
    questions,
    answeredQuestionIds: answers.map((answer) => answer.question),
  };
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
