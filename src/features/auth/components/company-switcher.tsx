import { Box, Flex, Link as RadixLink, Select } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router-dom';

import { showErrorToast } from '@/components/toaster';
import { paths } from '@/config/paths';
import { companyQueries } from '@/features/companies/api/company-queries';
import { getErrorMessage } from '@/lib/errors';
import { useSignedInUser } from '@/lib/session';

import { useSetPrimaryCompany } from '../api/set-primary-company';

/**
 * The bar under the top bar, for users with a primary company: the company being worked in (the route's, else the
 * primary one), a dropdown to switch, and its 'Jobs' and 'Questions'. Switching also saves the primary company.
 */
export function CompanySwitcher() {
  const user = useSignedInUser();
  const { companyId: routeCompanyId } = useParams();
  const navigate = useNavigate();
  const hasCompany = Boolean(user.primaryCompany);
  const companies = useQuery({ ...companyQueries.list(user.id), enabled: hasCompany });
  const setPrimaryCompany = useSetPrimaryCompany();

  if (!hasCompany) return null;
  const currentId = routeCompanyId ?? user.primaryCompany;

  function choose(companyId: string) {
    void navigate(paths.companies.detail.href(companyId));
    if (companyId === user.primaryCompany) return;
    setPrimaryCompany.mutate(
      { userId: user.id, companyId },
      { onError: (error) => showErrorToast(getErrorMessage(error)) },
    );
  }

  return (
    <Box asChild px="4" py="2" style={{ borderBottom: '1px solid var(--gray-a4)', background: 'var(--gray-a2)' }}>
      <nav aria-label="Company">
        <Flex align="center" gap="4" wrap="wrap">
          <Select.Root value={currentId} onValueChange={choose}>
            <Select.Trigger variant="soft" aria-label="Company" placeholder="Choose a company" />
            <Select.Content position="popper">
              {(companies.data ?? []).map((company) => (
                <Select.Item key={company.id} value={company.id}>
                  {company.name}
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
          <RadixLink asChild size="2" weight="medium">
            <Link to={paths.companies.detail.href(currentId)}>Jobs</Link>
          </RadixLink>
          <RadixLink asChild size="2" weight="medium">
            <Link to={paths.companies.questions.list.href(currentId)}>Questions</Link>
          </RadixLink>
        </Flex>
      </nav>
    </Box>
  );
}
