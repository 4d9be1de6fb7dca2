import { useMutation, useQueryClient } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { CompaniesResponse } from '@/lib/pocketbase-types';

import type { CompanyFormValues } from '../schemas';

import { companyQueries } from './company-queries';

export async function updateCompany({ id, values }: { id: string; values: CompanyFormValues }) {
  return pb.collection('companies').update<CompaniesResponse>(id, {
    name: values.name,
    website: values.website,
    privacyUrl: values.privacyUrl,
    timeZone: values.timeZone,
    mailFooterOff: values.mailFooterOff,
    // the stored logo is a file name: send a file only when a new one was picked
    ...(values.logo instanceof File ? { logo: values.logo } : {}),
  });
}

export function useUpdateCompany(options: { onSuccess?: (company: CompaniesResponse) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCompany,
    onSuccess: async (company) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: companyQueries.detail(company.id).queryKey }),
        queryClient.invalidateQueries({ queryKey: companyQueries.lists() }),
      ]);
      options.onSuccess?.(company);
    },
  });
}
