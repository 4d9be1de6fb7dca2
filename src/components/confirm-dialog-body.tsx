import { AlertDialog, Button, Callout, Flex, Spinner } from '@radix-ui/themes';
import { useState, type RefObject } from 'react';

import { AppTheme } from './app-theme';
import type { ConfirmAction, ConfirmDialogProps } from './confirm-dialog-types';

/**
 * The dialog of ConfirmDialog (./confirm-dialog.tsx), loaded when it first opens. It stays open while its action
 * runs, and says why it failed without closing. Closed, it gives the focus back to the button that opened it.
 */
export function ConfirmDialogBody({
  open,
  onOpenChange: setOpen,
  title,
  children,
  actions,
  errorMessage,
  cancelLabel = 'Cancel',
  triggerRef,
}: Omit<ConfirmDialogProps, 'trigger'> & { triggerRef: RefObject<HTMLElement | null> }) {
  const [running, setRunning] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function run(action: ConfirmAction) {
    setRunning(action.label);
    setError(null);
    try {
      await action.run();
      setOpen(false);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setRunning(null);
    }
  }

  return (
    <AppTheme>
      <AlertDialog.Root
        open={open}
        onOpenChange={(next) => {
          if (running) return;
          setOpen(next);
          setError(null);
        }}
      >
        <AlertDialog.Content
          maxWidth="480px"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            triggerRef.current?.focus();
          }}
        >
          <AlertDialog.Title>{title}</AlertDialog.Title>
          <AlertDialog.Description size="2">{children}</AlertDialog.Description>
          {error && (
            <Callout.Root color="red" role="alert" size="1" mt="3">
              <Callout.Text>{error}</Callout.Text>
            </Callout.Root>
          )}
          <Flex gap="3" mt="4" justify="end" wrap="wrap">
            <AlertDialog.Cancel>
              <Button variant="soft" color="gray" disabled={running !== null}>
                {cancelLabel}
              </Button>
            </AlertDialog.Cancel>
            {actions.map((action) => (
              <Button
                key={action.label}
                color={action.color}
                variant={action.variant ?? 'solid'}
                // white on Radix's solid red is below WCAG AA's 4.5:1 (axe on the open dialog): the dark red instead
                highContrast={action.color === 'red' && (action.variant ?? 'solid') === 'solid'}
                disabled={action.disabled || running !== null}
                onClick={() => void run(action)}
              >
                {running === action.label && <Spinner size="1" />}
                {action.label}
              </Button>
            ))}
          </Flex>
        </AlertDialog.Content>
      </AlertDialog.Root>
    </AppTheme>
  );
}
