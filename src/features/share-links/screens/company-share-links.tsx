import { Badge, Link as RadixLink, Table, VisuallyHidden } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';

import { ActionsHeaderCell } from '@/components/actions-header-cell';
import { paths } from '@/config/paths';
import { CompanySettingsList } from '@/features/companies/components/company-settings-list';
import { formatDate } from '@/lib/format-date';
import { nameOrEmail } from '@/lib/person-name';

import { useMayRevokeShareLink } from '../api/revoke-share-link';
import { shareLinkQueries, type CompanyShareLinkPerson } from '../api/share-link-queries';
import { RevokeLinkButton } from '../components/revoke-link-button';

/** A person's name as people read it; their e-mail when they have none. */
function nameOf(person: CompanyShareLinkPerson): string {
  return nameOrEmail(person);
}

/**
 * Company settings, 'Share links': every link of the company that still opens, whoever made it (candidate, job, who
 * made it, created, expires, with ratings and comments or not), newest first. The owner revokes any; another manager
 * their own. A manager who leaves the company, or is removed, takes their links with them: the server revokes them.
 */
export function CompanyShareLinksScreen() {
  const { companyId = '' } = useParams();
  const links = useQuery(shareLinkQueries.company(companyId));
  const mayRevoke = useMayRevokeShareLink(companyId);
  return (
    <CompanySettingsList
      companyId={companyId}
      title="Share links"
      intro={
        <>
          Every link to a candidate&apos;s review that still opens, whoever made it. The company&apos;s owner can revoke any
          of them, other managers the links they made. When a manager leaves the company, their links stop working.
        </>
      }
      query={links}
      empty="No share links are open."
    >
      {(items) => (
        <Table.Root variant="surface" size="1">
          <VisuallyHidden asChild>
            <caption>Live share links</caption>
          </VisuallyHidden>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Candidate</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Job</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Created by</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Created</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Expires</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Ratings and comments</Table.ColumnHeaderCell>
              <ActionsHeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {items.map((link) => {
              const candidate = nameOf(link.candidate);
              return (
                <Table.Row key={link.id} align="center">
                  <Table.RowHeaderCell>
                    <RadixLink asChild>
                      <Link to={paths.companies.jobs.candidate.href(companyId, link.job.id, link.candidate.id)}>{candidate}</Link>
                    </RadixLink>
                  </Table.RowHeaderCell>
                  <Table.Cell>{link.job.title}</Table.Cell>
                  <Table.Cell>{nameOf(link.createdBy)}</Table.Cell>
                  <Table.Cell>{formatDate(link.created)}</Table.Cell>
                  <Table.Cell>{formatDate(link.expiresAt)}</Table.Cell>
                  <Table.Cell>
                    {link.includeFeedback ? (
                      <Badge color="indigo">Included</Badge>
                    ) : (
                      <Badge color="gray">Not included</Badge>
                    )}
                  </Table.Cell>
                  <Table.Cell justify="end">
                    {mayRevoke(link.createdBy.id) && (
                      <RevokeLinkButton
                        linkId={link.id}
                        candidateId={link.candidate.id}
                        label={`Revoke the link to ${candidate} created on ${formatDate(link.created)}`}
                      />
                    )}
                  </Table.Cell>
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
      )}
    </CompanySettingsList>
  );
}
