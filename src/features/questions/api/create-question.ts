import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { QuestionsResponse, TextQuestionsResponse, VideoQuestionsResponse } from '@/lib/pocketbase-types';

import type { QuestionFormValues } from '../schemas';

import { questionQueries, type QuestionWithKind } from './question-queries';
import { newRecordId } from '@/lib/record-id';

export type CreateQuestionInput = { companyId: string; values: QuestionFormValues };

/** A question and its kind record in one transaction: the server never holds a question without a kind. */
export async function createQuestion({ companyId, values }: CreateQuestionInput): Promise<QuestionWithKind> {
  const id = newRecordId();
  const batch = pb.createBatch();
  batch.collection('questions').create({
    id,
    company: companyId,
    title: values.title,
    description: values.description,
    timeout: values.timeout,
    canPreview: values.canPreview,
  });
  if (values.kind.type === 'video') {
    batch.collection('video_questions').create({ question: id, takes: values.kind.takes, preparation: values.kind.preparation });
  } else {
    batch.collection('text_questions').create({ question: id });
  }
  const [questionResult, kindResult] = await batch.send();
  const question = questionResult!.body as QuestionsResponse;
  const kind: unknown = kindResult!.body;
  return {
    ...question,
    expand:
      values.kind.type === 'video'
        ? { video_questions_via_question: kind as VideoQuestionsResponse }
        : { text_questions_via_question: kind as TextQuestionsResponse },
  };
}

type Options = Omit<UseMutationOptions<QuestionWithKind, Error, CreateQuestionInput>, 'mutationFn'>;

export function useCreateQuestion(options: Options = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: createQuestion,
    onSuccess: async (question, input, ...rest) => {
      // The new question shows at once in its company's list (and in a job's picker), before the refetch.
      queryClient.setQueryData(questionQueries.list(input.companyId).queryKey, (list) =>
        list ? [question, ...list.filter((q) => q.id !== question.id)] : list,
      );
      queryClient.setQueryData(questionQueries.detail(question.id).queryKey, question);
      await queryClient.invalidateQueries({ queryKey: questionQueries.lists() });
      await options.onSuccess?.(question, input, ...rest);
    },
  });
}
