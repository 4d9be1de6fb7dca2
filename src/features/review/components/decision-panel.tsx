import { Button, Flex, SegmentedControl, Text } from '@radix-ui/themes';
import { useMutationState, useQuery } from '@tanstack/react-query';
import { useId } from 'react';

import type { CandidatesResponse } from '@/lib/pocketbase-types';
import { useSignedInUser } from '@/lib/session';
import { fullName } from '@/lib/person-name';

import { DECISIONS, managerQueries, useSetDecision, type Decision } from '../api/candidate-decision';

import { RelativeTime } from './relative-time';

const NONE = 'none';

/**
 * The candidate's decision (issue 15): Advance, Hold or Reject, or none; who set it and when. Optional and
 * changeable by any manager of the job's company; the candidate is not told.
 */
export function DecisionPanel({ candidate }: { candidate: CandidatesResponse }) {
  const labelId = useId();
  const setDecision = useSetDecision(candidate.id);
  // while a change is on its way, the control shows it
  const pending = useMutationState({
    filters: { mutationKey: ['set-decision', candidate.id], status: 'pending' },
    select: (mutation) => mutation.state.variables as Decision | '',
  });
  const shown = pending.length ? pending[pending.length - 1]! : (candidate.decision ?? '');

  return (
    <Flex direction="column" gap="2">
      <Text as="div" size="2" weight="bold" id={labelId}>
        Decision
      </Text>
      <Flex gap="3" align="center" wrap="wrap">
        <SegmentedControl.Root
          aria-labelledby={labelId}
          // no segment chosen: a value that matches none
          value={shown || NONE}
          onValueChange={(value) => setDecision.mutate(value as Decision)}
        >
          {DECISIONS.map(({ value, label }) => (
            <SegmentedControl.Item key={value} value={value}>
              {label}
            </SegmentedControl.Item>
          ))}
        </SegmentedControl.Root>
        {shown && (
          <Button type="button" size="1" variant="ghost" color="gray" onClick={() => setDecision.mutate('')}>
            Clear decision
          </Button>
        )}
      </Flex>
      <DecisionByline candidate={candidate} />
    </Flex>
  );
}

function DecisionByline({ candidate }: { candidate: CandidatesResponse }) {
  const user = useSignedInUser();
  const by = candidate.decisionBy ?? '';
  const manager = useQuery({ ...managerQueries.detail(by), enabled: Boolean(by) && by !== user.id });
  if (!candidate.decision) {
    return (
      <Text size="1" color="gray" data-testid="decision-byline">
        No decision yet
      </Text>
    );
  }
  const setter = by === user.id ? user : manager.data;
  const name = setter ? fullName(setter) : manager.isError ? 'a former manager' : '…';
  const label = DECISIONS.find((decision) => decision.value === candidate.decision)?.label ?? candidate.decision;
  return (
    <Text size="1" color="gray" data-testid="decision-byline">
      {label}, set by {name}
      {candidate.decisionAt ? (
        <>
          {' '}
          <RelativeTime value={candidate.decisionAt} />
        </>
      ) : null}
    </Text>
  );
}
