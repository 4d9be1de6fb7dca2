import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { JobsResponse } from '@/lib/pocketbase-types';

import type { JobFormValues } from '../schemas';

import { jobQueries } from './job-queries';

export type UpdateJobInput = { jobId: string; values: JobFormValues };

export function updateJob({ jobId, values }: UpdateJobInput): Promise<JobsResponse> {
  return pb.collection('jobs').update<JobsResponse>(jobId, values);
}

type Options = Omit<UseMutationOptions<JobsResponse, Error, UpdateJobInput>, 'mutationFn'>;

export function useUpdateJob(options: Options = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: updateJob,
    onSuccess: async (job, input, ...rest) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: jobQueries.detail(input.jobId).queryKey }),
        queryClient.invalidateQueries({ queryKey: jobQueries.lists() }),
      ]);
      await options.onSuccess?.(job, input, ...rest);
    },
  });
}
