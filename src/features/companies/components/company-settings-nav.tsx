import { Flex, Link as RadixLink } from '@radix-ui/themes';
import { NavLink } from 'react-router-dom';

import { paths } from '@/config/paths';

/** The side links of the company settings screens (spec §2: 'General' and 'Team members'; 'Decision messages'; issue 18: 'Webhooks'; issue 19: 'Audit log'; every live 'Share links'). */
export function CompanySettingsNav({ companyId }: { companyId: string }) {
  const links = [
    { label: 'General', to: paths.companies.edit.href(companyId) },
    { label: 'Team members', to: paths.companies.team.href(companyId) },
    { label: 'Decision messages', to: paths.companies.decisionMessages.href(companyId) },
    { label: 'Webhooks', to: paths.companies.webhooks.href(companyId) },
    { label: 'Audit log', to: paths.companies.auditLog.href(companyId) },
    { label: 'Share links', to: paths.companies.shareLinks.href(companyId) },
  ];
  return (
    <nav aria-label="Company settings">
      <Flex direction="column" gap="2">
        {links.map((link) => (
          <NavLink key={link.to} to={link.to} end>
            {({ isActive }) => (
              <RadixLink asChild weight={isActive ? 'bold' : 'regular'}>
                <span aria-current={isActive ? 'page' : undefined}>{link.label}</span>
              </RadixLink>
            )}
          </NavLink>
        ))}
      </Flex>
    </nav>
  );
}
