import { Button, DropdownMenu, Flex, Text } from '@radix-ui/themes';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';

import { AppTheme } from '@/components/app-theme';
import { ChevronDownIcon } from '@/components/chevron-down-icon';
import { paths } from '@/config/paths';

import { BulkActionDialog, type PendingAction } from './bulk-action-dialog';
import { COMPARE_MAX, COMPARE_MIN, MAX_BULK_CANDIDATES, type PipelineSelection } from './pipeline-selection';

/**
 * What the pipeline's selection can do (server/internal/bulk): decide, resend the invitation, send a decision
 * message, export, erase, each confirmed, then run with its progress and summary in a dialog; and compare two to four
 * candidates side by side. Its own chunk, loaded once something is selected, so Radix's menu, dialog and theme code
 * stay off the job page's first paint.
 */
export function BulkActionBar({
  companyId,
  jobId,
  selection,
  count,
  compareIds,
  onClear,
}: {
  companyId: string;
  jobId: string;
  selection: PipelineSelection;
  count: number;
  compareIds: string[] | null;
  onClear: () => void;
}) {
  const hintId = useId();
  const [pending, setPending] = useState<PendingAction | null>(null);
  const tooMany = count > MAX_BULK_CANDIDATES;
  const open = (action: PendingAction) => setPending(action);

  return (
    <AppTheme>
    <Flex asChild gap="2" align="center" wrap="wrap" p="2" className="pipeline-bulk-bar">
      <section aria-label="Selected candidates">
        <Text size="2" weight="medium" role="status">
          {selection.kind === 'matching' ? `All ${count.toLocaleString('en')} matching selected` : `${count.toLocaleString('en')} selected`}
        </Text>
        {tooMany ? (
          <Text size="2" color="red">
            A bulk action takes at most {MAX_BULK_CANDIDATES.toLocaleString('en')} candidates: narrow the filter.
          </Text>
        ) : null}
        <DropdownMenu.Root>
          <DropdownMenu.Trigger disabled={tooMany}>
            <Button variant="soft" size="2">
              Decide
              <ChevronDownIcon />
            </Button>
          </DropdownMenu.Trigger>
          <DropdownMenu.Content>
            <DropdownMenu.Item onSelect={() => open({ kind: 'decide', decision: 'advance' })}>Advance</DropdownMenu.Item>
            <DropdownMenu.Item onSelect={() => open({ kind: 'decide', decision: 'hold' })}>Hold</DropdownMenu.Item>
            <DropdownMenu.Item onSelect={() => open({ kind: 'decide', decision: 'reject' })}>Reject</DropdownMenu.Item>
            <DropdownMenu.Separator />
            <DropdownMenu.Item onSelect={() => open({ kind: 'decide', decision: '' })}>Clear decision</DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Root>
        <Button variant="soft" size="2" disabled={tooMany} onClick={() => open({ kind: 'resend-invite' })}>
          Resend invitation
        </Button>
        <DropdownMenu.Root>
          <DropdownMenu.Trigger disabled={tooMany}>
            <Button variant="soft" size="2">
              Send decision message
              <ChevronDownIcon />
            </Button>
          </DropdownMenu.Trigger>
          <DropdownMenu.Content>
            <DropdownMenu.Item onSelect={() => open({ kind: 'message', messageKind: 'advance' })}>Advance message</DropdownMenu.Item>
            <DropdownMenu.Item onSelect={() => open({ kind: 'message', messageKind: 'reject' })}>Reject message</DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Root>
        <Button variant="soft" size="2" disabled={tooMany} onClick={() => open({ kind: 'export' })}>
          Export
        </Button>
        <Button variant="soft" size="2" color="red" disabled={tooMany} onClick={() => open({ kind: 'erase' })}>
          Erase
        </Button>
        {compareIds ? (
          <Button asChild variant="soft" size="2">
            <Link to={paths.companies.jobs.compare.href(companyId, jobId, compareIds)}>Compare</Link>
          </Button>
        ) : (
          <Button variant="soft" size="2" disabled aria-describedby={hintId}>
            Compare
          </Button>
        )}
        {compareIds ? null : (
          <Text id={hintId} size="1" color="gray">
            Compare takes {COMPARE_MIN} to {COMPARE_MAX} selected candidates.
          </Text>
        )}
        <Button variant="ghost" size="2" color="gray" onClick={onClear}>
          Clear selection
        </Button>
        {pending ? (
          <BulkActionDialog
            jobId={jobId}
            action={pending}
            selection={selection}
            count={count}
            onClose={(finished) => {
              setPending(null);
              if (finished) onClear();
            }}
          />
        ) : null}
      </section>
    </Flex>
    </AppTheme>
  );
}
