import { Button } from '@radix-ui/themes';
import { ClientResponseError } from 'pocketbase';
import { useState } from 'react';
import { useIntl } from 'react-intl';

import { ConfirmDialog } from '@/components/confirm-dialog';

import { useWithdraw } from '../api/withdraw';
import { candidateErrorKey } from '../i18n/error-keys';

/** The dialog's stylesheet (./interview-dialog.css), fetched as the button is pointed at, focused or pressed. */
const loadDialogStyles = () => void import('./interview-dialog-styles').catch(() => undefined);

/**
 * 'Withdraw and delete my answers' (the candidate's right to have their data erased): a confirmation that says what
 * goes, then the same erasure as a manager's. Afterwards every candidate screen says they withdrew.
 */
export function WithdrawButton({
  candidateKey,
  companyName,
  variant = 'ghost',
}: {
  candidateKey: string;
  companyName: string;
  /** 'soft' where withdrawing is what the page is for (the data-request page); quieter beside 'Start Interview'. */
  variant?: 'ghost' | 'soft';
}) {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  const withdrawal = useWithdraw(candidateKey, intl.locale);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button type="button" size="2" variant={variant} color="red" onPointerEnter={loadDialogStyles} onFocus={loadDialogStyles} onClick={loadDialogStyles}>
          {intl.formatMessage({ id: 'withdraw.button' })}
        </Button>
      }
      title={intl.formatMessage({ id: 'withdraw.title' })}
      cancelLabel={intl.formatMessage({ id: 'withdraw.cancel' })}
      actions={[
        {
          label: intl.formatMessage({ id: 'withdraw.confirm' }),
          color: 'red',
          run: () => withdrawal.mutateAsync(),
        },
      ]}
      errorMessage={(error) =>
        // withdrawn meanwhile (another tab): the read that follows shows it
        error instanceof ClientResponseError && error.status === 404
          ? intl.formatMessage({ id: 'withdraw.gone' })
          : intl.formatMessage({ id: candidateErrorKey(error) })
      }
    >
      {intl.formatMessage({ id: 'withdraw.explain' }, { company: companyName })}
    </ConfirmDialog>
  );
}
