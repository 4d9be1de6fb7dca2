import { useMutation, useQueryClient } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { CompaniesResponse } from '@/lib/pocketbase-types';

import type { CompanyFormValues } from '../schemas';

import { companyQueries } from './company-queries';

export async function createCompany(values: CompanyFormValues): Promise<CompaniesResponse> {
  // The server makes the creator the only manager and, for a first company, the primary one (rule 1).
  const company = await pb.collection('companies').create<CompaniesResponse>({
    name: values.name,
    website: values.website,
    privacyUrl: values.privacyUrl,
    logo: values.logo,
  });
  // primaryCompany may have changed on the server: refresh the stored session so '/' knows it.
  await pb.collection('users').authRefresh();
  return company;
}

export function useCreateCompany(options: { onSuccess?: (company: CompaniesResponse) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCompany,
    onSuccess: async (company) => {
      await queryClient.invalidateQueries({ queryKey: companyQueries.lists() });
      options.onSuccess?.(company);
    },
  });
}
