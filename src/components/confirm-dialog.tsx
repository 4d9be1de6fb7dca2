import {
  cloneElement,
  lazy,
  Suspense,
  useEffect,
  useRef,
  useState,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  type RefObject,
} from 'react';

import type { ConfirmDialogProps, TriggerProps } from './confirm-dialog-types';

const loadBody = () => import('./confirm-dialog-body');
const ConfirmDialogBody = lazy(() => loadBody().then((module) => ({ default: module.ConfirmDialogBody })));
/** Starts the dialog's download when the manager points at or focuses its button, so a click seldom waits for it. */
const preload = () => void loadBody().catch(() => undefined);

/**
 * `trigger` as the button that opens a confirmation: it says it opens a dialog, opens it when used, and starts
 * loading the dialog's code when pointed at or focused.
 */
function confirmTrigger(
  trigger: ReactElement<TriggerProps>,
  { open, onOpenChange, triggerRef }: { open: boolean; onOpenChange: (open: boolean) => void; triggerRef: RefObject<HTMLElement | null> },
): ReactElement {
  const { onClick, onPointerEnter, onFocus } = trigger.props;
  return cloneElement(trigger, {
    ref: triggerRef,
    'aria-haspopup': 'dialog',
    'aria-expanded': open,
    'data-state': open ? 'open' : 'closed',
    onClick: (event: MouseEvent<HTMLElement>) => {
      onClick?.(event);
      if (!event.defaultPrevented) onOpenChange(true);
    },
    onPointerEnter: () => {
      onPointerEnter?.();
      preload();
    },
    onFocus: () => {
      onFocus?.();
      preload();
    },
  } as TriggerProps);
}

/** The dialog of a confirmation (its code loaded on first use), for a `confirmTrigger` button given as `triggerRef`. */
export function ConfirmDialogPanel(props: Omit<ConfirmDialogProps, 'trigger'> & { triggerRef: RefObject<HTMLElement | null> }) {
  return (
    <Suspense fallback={null}>
      <ConfirmDialogBody {...props} />
    </Suspense>
  );
}

/** What a `ConfirmOnOpen` panel gets: its state, and the button to give the focus back to. */
export type ConfirmPanelProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  triggerRef: RefObject<HTMLElement | null>;
};

/**
 * A confirmation whose dialog reads or writes something (what a job holds, its archive and delete): until first
 * opened it is only its button, and `panel` (a component around `ConfirmDialogPanel`, with those reads and writes)
 * mounts once it is opened and stays mounted, so it closes with its animation (issue 20: with them in every row of a
 * list they were 40% of the company home's first render).
 */
export function ConfirmOnOpen({ trigger, panel }: { trigger: ReactElement<TriggerProps>; panel: (props: ConfirmPanelProps) => ReactNode }) {
  const triggerRef = useRef<HTMLElement>(null);
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) setOpened(true);
  };
  return (
    <>
      {confirmTrigger(trigger, { open, onOpenChange, triggerRef })}
      {opened && panel({ open, onOpenChange, triggerRef })}
    </>
  );
}

/**
 * A confirmation before something that cannot be undone (issue 16: deleting says plainly what goes with it).
 *
 * Its button renders with the page; the dialog's code (Radix's alert dialog and theme, ./confirm-dialog-body.tsx)
 * loads when the button is pointed at, focused or used (issue 20: a list with a 'Delete' in every row paid for it on
 * every first visit), and stays mounted once opened, so it closes with its animation. A row that reads or writes
 * anything for its dialog is a `ConfirmOnOpen` instead.
 */
export function ConfirmDialog({ trigger, ...dialog }: ConfirmDialogProps) {
  const { open, onOpenChange } = dialog;
  const triggerRef = useRef<HTMLElement>(null);
  const [opened, setOpened] = useState(open);
  useEffect(() => {
    if (open) setOpened(true);
  }, [open]);

  return (
    <>
      {confirmTrigger(trigger, { open, onOpenChange, triggerRef })}
      {(open || opened) && <ConfirmDialogPanel {...dialog} triggerRef={triggerRef} />}
    </>
  );
}
