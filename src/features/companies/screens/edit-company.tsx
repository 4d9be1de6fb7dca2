import { Callout, Flex, Spinner } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { useNavigate, useParams } from 'react-router-dom';

import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/errors';

import { companyLogoUrl, companyQueries } from '../api/company-queries';
import { useUpdateCompany } from '../api/update-company';
import { CompanyForm } from '../components/company-form';
import { CompanySettingsLayout } from '../components/company-settings-layout';

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

  if (company.isPending) {
    return (
      <Flex justify="center" p="6">
        <Spinner size="3" />
      </Flex>
    );
  }
  // spec §2: a load error shows its message in place of the page
  if (company.isError) {
    return (
      <Callout.Root color="red" m="4" role="alert">
        <Callout.Text>{getErrorMessage(company.error)}</Callout.Text>
      </Callout.Root>
    );
  }

  const data = company.data;
  return (
    <CompanySettingsLayout companyId={companyId} title="General">
      <CompanyForm
        key={data.id + data.updated}
        defaultValues={{ name: data.name, website: data.website, logo: data.logo }}
        storedLogoUrl={companyLogoUrl(data, '100x100')}
        submitLabel="Update Company"
        onSubmit={(values) => updateCompany.mutateAsync({ id: companyId, values })}
      />
    </CompanySettingsLayout>
  );
}
