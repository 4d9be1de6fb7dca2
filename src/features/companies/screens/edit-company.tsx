import { useQuery } from '@tanstack/react-query';
import { toast } from '@/components/toast';
import { useNavigate, useParams } from 'react-router-dom';

import { paths } from '@/config/paths';
import { QueryState } from '@/components/query-state';

import { companyLogoUrl, companyQueries } from '../api/company-queries';
import { useUpdateCompany } from '../api/update-company';
import { CompanyForm } from '../components/company-form';
import { CompanySettingsLayout } from '../components/company-settings-layout';
import { RetentionSettings } from '../components/retention-settings';

export function EditCompanyScreen() {
  const { companyId = '' } = useParams();
  const navigate = useNavigate();
  const company = useQuery(companyQueries.detail(companyId));
  const updateCompany = useUpdateCompany({
    onSuccess: () => {
      toast.success('Company updated');
      void navigate(paths.home.href());
    },
  });

  return (
    <QueryState query={company}>
      {(data) => (
        <CompanySettingsLayout companyId={companyId} title="General">
          <CompanyForm
            key={data.id + data.updated}
            defaultValues={{
              name: data.name,
              website: data.website,
              privacyUrl: data.privacyUrl ?? '',
              logo: data.logo,
              timeZone: data.timeZone ?? '',
              mailFooterOff: data.mailFooterOff ?? false,
            }}
            storedLogoUrl={companyLogoUrl(data, '100x100')}
            mailSettings
            submitLabel="Update Company"
            onSubmit={(values) => updateCompany.mutateAsync({ id: companyId, values })}
          />
          <RetentionSettings key={`retention-${data.id}-${data.retentionMonths ?? 0}`} companyId={companyId} retentionMonths={data.retentionMonths ?? 0} />
        </CompanySettingsLayout>
      )}
    </QueryState>
  );
}
