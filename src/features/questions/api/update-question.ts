import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { ClientResponseError } from 'pocketbase';

import { pb } from '@/lib/pocketbase';

import type { QuestionFormValues } from '../schemas';

import { questionKind, questionQueries, type QuestionWithKind } from './question-queries';

export type UpdateQuestionInput = { question: QuestionWithKind; values: QuestionFormValues };

/**
 * The question and its kind in one transaction. A change of kind deletes the old kind record before creating the
 * new one: the server refuses a question with two kinds (rule 8).
 */
export async function updateQuestion({ question, values }: UpdateQuestionInput): Promise<void> {
  const current = questionKind(question);
  const batch = pb.createBatch();
  batch.collection('questions').update(question.id, {
    title: values.title,
    description: values.description,
    timeout: values.timeout,
    canPreview: values.canPreview,
  });
  if (current?.type === 'video' && values.kind.type === 'video') {
    batch.collection('video_questions').update(current.record.id, { takes: values.kind.takes, preparation: values.kind.preparation });
  } else if (current?.type !== values.kind.type) {
    if (current) batch.collection(`${current.type}_questions`).delete(current.record.id);
    if (values.kind.type === 'video') {
      batch.collection('video_questions').create({ question: question.id, takes: values.kind.takes, preparation: values.kind.preparation });
    } else {
      batch.collection('text_questions').create({ question: question.id });
    }
  }
  try {
    await batch.send();
  } catch (error) {
    throw failedRequestError(error);
  }
}

/**
 * A refused batch answers 400 "Batch transaction failed." with the failing request's own answer inside
 * (data.requests[N].response): that answer, so its field errors (a refused change of kind lands on `kind`, issue 16)
 * reach the form's fields.
 */
export function failedRequestError(error: unknown): unknown {
  if (!(error instanceof ClientResponseError)) return error;
  const requests: unknown = (error.response.data as { requests?: unknown } | undefined)?.requests;
  if (typeof requests !== 'object' || requests === null) return error;
  const failed = Object.values(requests as Record<string, { response?: { status?: number } }>)[0]?.response;
  if (!failed || typeof failed !== 'object') return error;
  return new ClientResponseError({ url: error.url, status: failed.status ?? error.status, response: failed });
}

type Options = Omit<UseMutationOptions<void, Error, UpdateQuestionInput>, 'mutationFn'>;

export function useUpdateQuestion(options: Options = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: updateQuestion,
    onSuccess: async (data, input, ...rest) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: questionQueries.detail(input.question.id).queryKey }),
        queryClient.invalidateQueries({ queryKey: questionQueries.lists() }),
      ]);
      await options.onSuccess?.(data, input, ...rest);
    },
  });
}
