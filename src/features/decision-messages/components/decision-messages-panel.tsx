import { Button, Flex, Link as RadixLink, Spinner, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';

import { ConfirmDialogPanel, ConfirmOnOpen, type ConfirmPanelProps } from '@/components/confirm-dialog';
import { toast } from '@/components/toast';
import { paths } from '@/config/paths';
import { managerQueries } from '@/features/review/api/candidate-decision';
import { getErrorMessage } from '@/lib/errors';
import { formatDate } from '@/lib/format-date';
import { fullName } from '@/lib/person-name';
import type { CandidatesResponse, DecisionMessagesResponse } from '@/lib/pocketbase-types';
import { useSignedInUser } from '@/lib/session';

import { decisionMessageQueries, useSendDecisionMessage } from '../api/decision-messages';
import { DECISION_KINDS, type DecisionKind } from '../api/decision-templates';

import { MessagePreview } from './message-preview';

const labelOf = (kind: string) => DECISION_KINDS.find((option) => option.value === kind)?.label ?? kind;

/**
 * The candidate's decision messages on their review: what was sent, when and by whom, and sending the message of
 * their decision (advance or reject), previewed first. Never sent by deciding alone; once per kind.
 */
export function DecisionMessagesPanel({ candidate, companyId }: { candidate: CandidatesResponse; companyId: string }) {
  const sent = useQuery(decisionMessageQueries.list(candidate.id));
  const decision = candidate.decision;
  const kind: DecisionKind | null = decision === 'advance' || decision === 'reject' ? decision : null;
  const alreadySent = kind !== null && (sent.data ?? []).some((message) => message.kind === kind);

  return (
    <Flex direction="column" gap="3" aria-labelledby="decision-messages-heading" role="region">
      <Flex justify="between" align="center" gap="3" wrap="wrap">
        <Text as="div" size="2" weight="bold" id="decision-messages-heading">
          Decision message
        </Text>
        <RadixLink asChild size="1">
          <Link to={paths.companies.decisionMessages.href(companyId)}>Edit the texts</Link>
        </RadixLink>
      </Flex>
      {sent.isPending ? (
        <Spinner />
      ) : sent.isError ? (
        <Text size="2" color="red" role="alert">
          {getErrorMessage(sent.error)}
        </Text>
      ) : sent.data.length === 0 ? (
        <Text size="2" color="gray">
          No message sent yet.
        </Text>
      ) : (
        <Flex direction="column" gap="2" asChild>
          <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label="Messages sent">
            {sent.data.map((message) => (
              <SentMessage key={message.id} message={message} />
            ))}
          </ul>
        </Flex>
      )}
      {kind === null ? (
        <Text size="2" color="gray">
          Advance or reject the candidate to send them a message.
        </Text>
      ) : alreadySent ? null : (
        <Flex>
          <SendButton candidate={candidate} kind={kind} />
        </Flex>
      )}
    </Flex>
  );
}

function SentMessage({ message }: { message: DecisionMessagesResponse }) {
  const user = useSignedInUser();
  const by = message.sentBy;
  const manager = useQuery({ ...managerQueries.detail(by), enabled: Boolean(by) && by !== user.id });
  const sender = !by ? 'a former manager' : by === user.id ? 'you' : manager.data ? fullName(manager.data) : manager.isError ? 'a former manager' : '…';
  return (
    <li>
      <Flex direction="column" gap="1">
        <Text size="2" data-testid="sent-message-line">
          {labelOf(message.kind)} message sent {formatDate(message.sentAt)} by {sender}
        </Text>
        <details>
          <summary>
            <Text size="2" lang={message.language}>
              {message.subject}
            </Text>
          </summary>
          <Text as="p" size="2" lang={message.language} dir="auto" style={{ whiteSpace: 'pre-wrap' }}>
            {message.body}
          </Text>
        </details>
      </Flex>
    </li>
  );
}

function SendButton({ candidate, kind }: { candidate: CandidatesResponse; kind: DecisionKind }) {
  const label = `Send ${kind} message`;
  return (
    <ConfirmOnOpen
      trigger={
        <Button type="button" variant="soft">
          {label}
        </Button>
      }
      panel={(props) => <SendPanel {...props} candidate={candidate} kind={kind} />}
    />
  );
}

/** The dialog: the e-mail exactly as it will go (read from the server while open), then 'Send'. */
function SendPanel({ candidate, kind, ...dialog }: ConfirmPanelProps & { candidate: CandidatesResponse; kind: DecisionKind }) {
  const preview = useQuery({ ...decisionMessageQueries.preview(candidate.id, kind), enabled: dialog.open });
  const send = useSendDecisionMessage(candidate.id);
  return (
    <ConfirmDialogPanel
      {...dialog}
      title={`Send the ${kind} message?`}
      errorMessage={getErrorMessage}
      actions={
        preview.data
          ? [
              {
                label: 'Send',
                run: async () => {
                  await send.mutateAsync(kind);
                  toast.success(`Message sent to ${candidate.email}`);
                },
              },
            ]
          : []
      }
    >
      {preview.isPending ? (
        <Text as="span">Preparing the e-mail…</Text>
      ) : preview.isError ? (
        <Text as="span" color="red" role="alert">
          {getErrorMessage(preview.error)}
        </Text>
      ) : (
        <MessagePreview preview={preview.data} />
      )}
    </ConfirmDialogPanel>
  );
}
