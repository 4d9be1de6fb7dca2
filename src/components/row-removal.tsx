import { Button } from '@radix-ui/themes';
import type { ReactElement, ReactNode } from 'react';

import { ConfirmOnOpen, type ConfirmPanelProps } from '@/components/confirm-dialog';
import { showErrorToast } from '@/components/toaster';
import { deletionErrorMessage } from '@/lib/deletion-errors';

/** The part of a feature's archive mutation (useArchiveJob, useArchiveQuestion) the button uses. */
type ArchiveMutation<V> = {
  isPending: boolean;
  mutate: (variables: V, options: { onError: (error: Error) => void }) => void;
};

/**
 * An archived job's or question's 'Unarchive' in its list (issue 16): `mutation` run with `variables` (which say
 * archived: false), busy while it runs, the server's refusal as a toast in the app's words.
 */
export function UnarchiveButton<V>({ title, mutation, variables }: { title: string; mutation: ArchiveMutation<V>; variables: V }) {
  return (
    <Button
      type="button"
      size="1"
      variant="ghost"
      aria-label={`Unarchive ${title}`}
      loading={mutation.isPending}
      onClick={() => mutation.mutate(variables, { onError: (error) => showErrorToast(deletionErrorMessage(error)) })}
    >
      Unarchive
    </Button>
  );
}

/**
 * A job's or question's 'Delete' in its list (issue 16): an archived one shows `unarchive` (its UnarchiveButton, as an
 * element: its mutation is built only where it shows); any other a red 'Delete' that mounts `panel`, the dialog with
 * its reads and actions, once it is first opened (ConfirmOnOpen).
 */
export function RowRemoval({
  title,
  archived,
  unarchive,
  panel,
}: {
  title: string;
  archived: boolean;
  unarchive: ReactElement;
  panel: (props: ConfirmPanelProps) => ReactNode;
}) {
  if (archived) return unarchive;
  return (
    <ConfirmOnOpen
      trigger={
        <Button type="button" size="1" variant="ghost" color="red" aria-label={`Delete ${title}`}>
          Delete
        </Button>
      }
      panel={panel}
    />
  );
}
