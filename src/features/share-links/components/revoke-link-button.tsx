import { AlertDialog, Button, Flex } from '@radix-ui/themes';
import { useState } from 'react';

import { AppTheme } from '@/components/app-theme';
import { toast } from '@/components/toast';
import { GENERIC_ERROR_MESSAGE } from '@/lib/errors';

import { useRevokeShareLink } from '../api/revoke-share-link';

/** 'Revoke', confirmed: whoever holds the link can no longer open the candidate's review. `label` names the link. */
export function RevokeLinkButton({ linkId, candidateId, label }: { linkId: string; candidateId: string; label: string }) {
  const [open, setOpen] = useState(false);
  const revoke = useRevokeShareLink();
  return (
    <AppTheme>
      <AlertDialog.Root open={open} onOpenChange={setOpen}>
        <AlertDialog.Trigger>
          <Button type="button" size="1" variant="soft" color="red" aria-label={label}>
            Revoke
          </Button>
        </AlertDialog.Trigger>
        <AlertDialog.Content maxWidth="440px">
          <AlertDialog.Title>Revoke this link?</AlertDialog.Title>
          <AlertDialog.Description size="2">
            Whoever has it can no longer open this candidate&rsquo;s review. This cannot be undone.
          </AlertDialog.Description>
          <Flex gap="3" mt="4" justify="end">
            <AlertDialog.Cancel>
              <Button type="button" variant="soft" color="gray">
                Cancel
              </Button>
            </AlertDialog.Cancel>
            <Button
              type="button"
              color="red"
              loading={revoke.isPending}
              onClick={() =>
                revoke.mutate(
                  { linkId, candidateId },
                  {
                    onSuccess: () => {
                      setOpen(false);
                      toast.success('Link revoked');
                    },
                    onError: (error) => {
                      console.error('revoking a share link failed', error);
                      toast.error(GENERIC_ERROR_MESSAGE);
                    },
                  },
                )
              }
            >
              Revoke link
            </Button>
          </Flex>
        </AlertDialog.Content>
      </AlertDialog.Root>
    </AppTheme>
  );
}
