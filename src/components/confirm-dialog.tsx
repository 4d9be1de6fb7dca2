import { AlertDialog, Button, Callout, Flex, Spinner } from '@radix-ui/themes';
import { useState, type ReactNode } from 'react';

import { AppTheme } from './app-theme';

export type ConfirmAction = {
  label: string;
  color?: 'red';
  variant?: 'solid' | 'soft';
  disabled?: boolean;
  /** Does the action; a thrown error stays in the dialog as `errorMessage(error)` and the dialog stays open. */
  run: () => Promise<unknown>;
};

type ConfirmDialogProps = {
  /** The button that opens the dialog. */
  trigger: ReactNode;
  /**
   * Controlled, so the caller reads what the dialog needs (counts of answers, jobs) only while it is open: when the
   * manager asks, not for every row of a list.
   */
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** What the actions take with them, in plain words (phrasing content: it sits in a paragraph). */
  children: ReactNode;
  /** The dialog's actions, besides 'Cancel'; none while what they depend on is loading. */
  actions: ConfirmAction[];
  errorMessage: (error: unknown) => string;
};

/**
 * A confirmation before something that cannot be undone (issue 16: deleting says plainly what goes with it). The
 * dialog stays open while its action runs, and says why it failed without closing.
 */
export function ConfirmDialog({ trigger, open, onOpenChange: setOpen, title, children, actions, errorMessage }: ConfirmDialogProps) {
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
        <AlertDialog.Trigger>{trigger}</AlertDialog.Trigger>
        <AlertDialog.Content maxWidth="480px">
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
                Cancel
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
