import { zodResolver } from '@hookform/resolvers/zod';
import { Box, Button, Callout, Dialog, Flex, Heading, Text, TextField } from '@radix-ui/themes';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '@/components/toast';

import { AppTheme } from '@/components/app-theme';
import { FormDevtools } from '@/components/form-devtools';
import { GENERIC_ERROR_MESSAGE } from '@/lib/errors';

import { useCreateShareLink, type CreatedShareLink } from '../api/create-share-link';
import {
  createShareLinkDefaults,
  createShareLinkSchema,
  EXPIRY_OPTIONS,
  type CreateShareLinkFormInput,
  type CreateShareLinkFormValues,
} from '../schemas';

import { ShareLinksTable } from './share-links-table';

/** A native select (keyboard and screen readers know it) drawn like the dialog's other fields. */
const SELECT_STYLE = {
  height: 'var(--space-6)',
  padding: '0 var(--space-2)',
  font: 'inherit',
  fontSize: 'var(--font-size-2)',
  color: 'var(--gray-12)',
  background: 'var(--color-surface)',
  border: '1px solid var(--gray-a7)',
  borderRadius: 'var(--radius-2)',
} as const;

type ShareCandidateButtonProps = {
  /** the candidate's company: who may revoke which link */
  companyId: string;
  candidateId: string;
  /** named in the dialog's description */
  candidateEmail: string;
};

/**
 * 'Share' on the candidate review (issue 15): a dialog that makes a read-only link to this candidate's review for a
 * colleague without an account, shows its URL once ('Copy link'), and lists the candidate's links with who made
 * them, when they expire, when they were last opened, their status and 'Revoke'.
 */
export function ShareCandidateButton({ companyId, candidateId, candidateEmail }: ShareCandidateButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <AppTheme>
      <Dialog.Root open={open} onOpenChange={setOpen}>
        {/* in a block of its own: the button keeps its size in a column or a row of the header */}
        <Box>
          <Dialog.Trigger>
            <Button type="button" variant="soft">
              Share
            </Button>
          </Dialog.Trigger>
        </Box>
        <Dialog.Content maxWidth="760px">
          <Dialog.Title>Share this candidate</Dialog.Title>
          <Dialog.Description size="2" mb="4">
            Anyone with the link can watch {candidateEmail}&rsquo;s answers, read-only and without an account, until it
            expires or is revoked.
          </Dialog.Description>
          {/* mounted while open only: a closed dialog forgets the link it showed once */}
          {open && <ShareDialogBody companyId={companyId} candidateId={candidateId} />}
          <Flex justify="end" mt="4">
            <Dialog.Close>
              <Button type="button" variant="soft" color="gray">
                Close
              </Button>
            </Dialog.Close>
          </Flex>
        </Dialog.Content>
      </Dialog.Root>
    </AppTheme>
  );
}

function ShareDialogBody({ companyId, candidateId }: { companyId: string; candidateId: string }) {
  const id = useId();
  const form = useForm<CreateShareLinkFormInput, unknown, CreateShareLinkFormValues>({
    resolver: zodResolver(createShareLinkSchema),
    defaultValues: createShareLinkDefaults,
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;
  const createLink = useCreateShareLink();
  const [created, setCreated] = useState<CreatedShareLink | null>(null);
  const [failed, setFailed] = useState(false);

  async function submit(values: CreateShareLinkFormValues) {
    setFailed(false);
    try {
      setCreated(await createLink.mutateAsync({ candidateId, ...values }));
    } catch (error) {
      console.error('creating a share link failed', error);
      setCreated(null);
      setFailed(true);
    }
  }

  return (
    <Flex direction="column" gap="5">
      <form noValidate onSubmit={form.handleSubmit(submit)}>
        <Flex gap="4" align="end" wrap="wrap">
          <Flex direction="column" gap="1">
            <Text as="label" htmlFor={`${id}-expiry`} size="2" weight="medium">
              Expires after
            </Text>
            <select
              id={`${id}-expiry`}
              style={SELECT_STYLE}
              {...register('expiresInDays')}
              aria-invalid={errors.expiresInDays ? true : undefined}
              aria-describedby={errors.expiresInDays ? `${id}-expiry-error` : undefined}
            >
              {EXPIRY_OPTIONS.map((option) => (
                <option key={option.days} value={String(option.days)}>
                  {option.label}
                </option>
              ))}
            </select>
          </Flex>
          <Text as="label" size="2">
            <Flex gap="2" align="center" style={{ minHeight: 'var(--space-6)' }}>
              <input type="checkbox" {...register('includeFeedback')} />
              Include ratings and comments
            </Flex>
          </Text>
          <Button type="submit" loading={isSubmitting}>
            Create link
          </Button>
        </Flex>
        {errors.expiresInDays?.message ? (
          <Text id={`${id}-expiry-error`} size="1" color="red" role="alert">
            {errors.expiresInDays.message}
          </Text>
        ) : null}
        <FormDevtools control={form.control} />
      </form>

      {failed && (
        <Callout.Root color="red" role="alert" size="1">
          <Callout.Text>{GENERIC_ERROR_MESSAGE}</Callout.Text>
        </Callout.Root>
      )}
      {created && <CreatedLink url={created.url} />}

      <Flex direction="column" gap="2">
        <Heading as="h3" size="3">
          Links to this candidate
        </Heading>
        <ShareLinksTable companyId={companyId} candidateId={candidateId} />
      </Flex>
    </Flex>
  );
}

/** The new link's URL, shown this once: the server keeps only a hash of its token. */
function CreatedLink({ url }: { url: string }) {
  const id = useId();
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      toast.success('Link copied');
    } catch (error) {
      console.error('copying the link failed', error);
      const input = document.getElementById(id);
      if (input instanceof HTMLInputElement) input.select();
      toast.error('Could not copy the link: select it and copy it yourself.');
    }
  }
  return (
    <Box p="3" style={{ background: 'var(--accent-a3)', borderRadius: 'var(--radius-3)' }}>
      <Flex direction="column" gap="2">
        <Text as="label" htmlFor={id} size="2" weight="medium">
          Share link
        </Text>
        <Flex gap="2">
          <TextField.Root id={id} readOnly value={url} style={{ flex: 1 }} onFocus={(event) => event.currentTarget.select()} />
          <Button type="button" onClick={() => void copy()}>
            Copy link
          </Button>
        </Flex>
        <Text size="1" color="gray">
          Copy it now: this link is shown only once.
        </Text>
      </Flex>
    </Box>
  );
}
