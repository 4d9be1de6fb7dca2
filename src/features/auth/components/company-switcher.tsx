import { Box, Flex, Link as RadixLink } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router-dom';

import { ChevronDownIcon } from '@/components/chevron-down-icon';
import { Deferred } from '@/components/deferred';
import { showErrorToast } from '@/components/toaster';
import { paths } from '@/config/paths';
import { companyQueries } from '@/features/companies/api/company-queries';
import { getErrorMessage } from '@/lib/errors';
import { useSignedInUser } from '@/lib/session';

import { SearchBox } from '@/features/search/components/search-box';

import { useSetPrimaryCompany } from '../api/set-primary-company';

import type { CompanySelectProps } from './company-select';
import { NEW_COMPANY_VALUE } from './new-company-value';

const loadSelect = () => import('./company-select').then((m) => m.CompanySelect);

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
    if (companyId === NEW_COMPANY_VALUE) {
      void navigate(paths.companies.new.href());
      return;
    }
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
          <Deferred<Omit<CompanySelectProps, 'defaultOpen'>>
            load={loadSelect}
            props={{ companies: companies.data ?? [], value: currentId, onChange: choose }}
            placeholder={(open) => (
              <CompanySelectLookAlike
                name={companies.data?.find((company) => company.id === currentId)?.name}
                onOpen={open}
              />
            )}
          />
          <RadixLink asChild size="2" weight="medium">
            <Link to={paths.companies.detail.href(currentId)}>Jobs</Link>
          </RadixLink>
          <RadixLink asChild size="2" weight="medium">
            <Link to={paths.companies.questions.list.href(currentId)}>Questions</Link>
          </RadixLink>
          <Box style={{ marginLeft: 'auto' }}>
            {/* a fresh box for each company */}
            <SearchBox key={currentId} companyId={currentId} />
          </Box>
        </Flex>
      </nav>
    </Box>
  );
}

/**
 * Radix Themes' closed Select trigger (variant soft, size 2), as it renders, drawn before the select's code has
 * loaded: the same classes and size, so nothing moves when the real one replaces it.
 */
function CompanySelectLookAlike({ name, onOpen }: { name: string | undefined; onOpen: () => void }) {
  return (
    <button
      type="button"
      role="combobox"
      aria-label="Company"
      aria-expanded={false}
      aria-autocomplete="none"
      data-state="closed"
      className="rt-reset rt-SelectTrigger rt-r-size-2 rt-variant-soft"
      onClick={onOpen}
      onKeyDown={(event) => {
        if (['Enter', ' ', 'ArrowDown', 'ArrowUp'].includes(event.key)) {
          event.preventDefault();
          onOpen();
        }
      }}
    >
      <span className="rt-SelectTriggerInner">
        <span style={{ pointerEvents: 'none' }}>{name ?? 'Choose a company'}</span>
      </span>
      <ChevronDownIcon className="rt-SelectIcon" />
    </button>
  );
}
