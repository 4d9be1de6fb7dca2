import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { JobsResponse } from '@/lib/pocketbase-types';

import type { JobFormValues } from '../schemas';

import { jobQueries } from './job-queries';

export type CreateJobInput = { companyId: string; values: JobFormValues };

export function createJob({ companyId, values }: CreateJobInput): Promise<JobsResponse> {
  return pb.collection('jobs').create<JobsResponse>({ ...values, company: companyId });
}

type Options = Omit<UseMutationOptions<JobsResponse, Error, CreateJobInput>, 'mutationFn'>;

export function useCreateJob(options: Options = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: createJob,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: jobQueries.lists() });
      await options.onSuccess?.(...args);
    },
  });
}
