import { Select } from '@radix-ui/themes';

import { AppTheme } from '@/components/app-theme';
import type { CompaniesResponse } from '@/lib/pocketbase-types';

import { NEW_COMPANY_VALUE } from './new-company-value';

export type CompanySelectProps = {
  companies: CompaniesResponse[];
  value: string;
  onChange: (companyId: string) => void;
  defaultOpen?: boolean;
};

/** The switcher's dropdown itself (its own chunk: Radix's select and popper code load after the first paint). */
export function CompanySelect({ companies, value, onChange, defaultOpen }: CompanySelectProps) {
  return (
    <AppTheme>
      <Select.Root value={value} onValueChange={onChange} defaultOpen={defaultOpen}>
        <Select.Trigger variant="soft" aria-label="Company" placeholder="Choose a company" />
        <Select.Content position="popper">
          {companies.map((company) => (
            <Select.Item key={company.id} value={company.id}>
              {company.name}
            </Select.Item>
          ))}
          <Select.Separator />
          {/* another company of the user's own, on the create-company screen; chosen like a company */}
          <Select.Item value={NEW_COMPANY_VALUE}>New company</Select.Item>
        </Select.Content>
      </Select.Root>
    </AppTheme>
  );
}
