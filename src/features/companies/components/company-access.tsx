import { Button, Flex, Heading, Spinner, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, Outlet, useParams } from 'react-router-dom';

import { paths } from '@/config/paths';
import { useSignedInUser } from '@/lib/session';

import { companyQueries } from '../api/company-queries';

export const NO_COMPANY_ACCESS_MESSAGE = "You don't have access to this company";

/**
 * Every `/companies/{companyId}/...` screen, behind the list of the companies the user manages (the switcher's, so
 * usually read already): another company's URL, or one that does not exist, shows that the user has no access
 * instead of an empty company with an 'Add Job' button (issue 16). The server refuses the data either way; this is
 * only what the user is told.
 */
export function CompanyAccess() {
  const { companyId = '' } = useParams();
  const user = useSignedInUser();
  const companies = useQuery(companyQueries.list(user.id));
  const listed = companies.data?.some((company) => company.id === companyId) ?? false;
  // A list read earlier may miss a company joined or created since: read it once more before saying anything.
  const [recheckedFor, setRecheckedFor] = useState<string | null>(null);
  const recheck = companies.isSuccess && !listed && recheckedFor !== companyId;
  const { refetch } = companies;
  useEffect(() => {
    if (recheck) void refetch().finally(() => setRecheckedFor(companyId));
  }, [recheck, refetch, companyId]);

  if (companies.isPending || recheck) {
    return (
      <Flex justify="center" p="6" aria-busy="true">
        <Spinner size="3" />
      </Flex>
    );
  }
  // A list that could not be read decides nothing: the screen's own reads say what went wrong.
  if (companies.isError || listed) return <Outlet />;
  return <NoCompanyAccess ownCompanyId={companies.data[0]?.id} />;
}

/** `ownCompanyId`: one of the user's companies to go to instead (none: only creating one is offered). */
export function NoCompanyAccess({ ownCompanyId }: { ownCompanyId?: string }) {
  return (
    <Flex direction="column" align="center" gap="4" py="9" px="4">
      <Heading as="h1" size="6" align="center">
        {NO_COMPANY_ACCESS_MESSAGE}
      </Heading>
      <Text as="p" align="center" color="gray" style={{ maxWidth: '36rem' }}>
        This company does not exist, or you are not one of its managers. If you should be, ask one of its managers to
        invite you.
      </Text>
      <Flex gap="3" wrap="wrap" justify="center">
        {ownCompanyId ? (
          <Button asChild>
            <Link to={paths.companies.detail.href(ownCompanyId)}>Go to your company</Link>
          </Button>
        ) : null}
        <Button asChild variant={ownCompanyId ? 'outline' : 'solid'}>
          <Link to={paths.companies.new.href()}>Create a company</Link>
        </Button>
      </Flex>
    </Flex>
  );
}
