import { AlertDialog, Button, Flex } from '@radix-ui/themes';
import { useContext, useEffect } from 'react';
import { UNSAFE_DataRouterContext, useBlocker } from 'react-router-dom';

/**
 * Issue 16: leaving a form with unsaved changes asks first. Render it inside the form with `when` = the form has
 * changes and is not being submitted (a successful submit navigates away while it is still submitting, so saving
 * never asks). Inside the app's data router a link, the back button or a redirect in the app opens 'Leave without
 * saving?'; closing or reloading the tab gets the browser's own question (beforeunload: browsers show their text,
 * never ours). Outside a data router (a form rendered alone in a unit test) only the browser's question is set up.
 * One per page: a form nested in another's dialog leaves it to the outer form (a router has one blocker).
 */
export function UnsavedChangesGuard({ when }: { when: boolean }) {
  useEffect(() => {
    if (!when) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // older Chromium and Safari still want returnValue set
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [when]);
  return useContext(UNSAFE_DataRouterContext) ? <LeavePrompt when={when} /> : null;
}

function LeavePrompt({ when }: { when: boolean }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      when && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  const blocked = blocker.state === 'blocked';
  return (
    <AlertDialog.Root
      open={blocked}
      onOpenChange={(open) => {
        // Escape: stay
        if (!open) blocker.reset?.();
      }}
    >
      <AlertDialog.Content maxWidth="420px">
        <AlertDialog.Title>Leave without saving?</AlertDialog.Title>
        <AlertDialog.Description size="2">The changes you made on this page will be lost.</AlertDialog.Description>
        <Flex gap="3" mt="4" justify="end">
          {/* plain buttons, not AlertDialog's Cancel / Action: the dialog closes because the blocker moves on,
              and its close must not reset a blocker that is proceeding */}
          <Button variant="soft" color="gray" onClick={() => blocker.reset?.()}>
            Stay
          </Button>
          <Button color="red" highContrast onClick={() => blocker.proceed?.()}>
            Leave
          </Button>
        </Flex>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}
