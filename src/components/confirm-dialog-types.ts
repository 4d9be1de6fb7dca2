import type { MouseEvent, ReactElement, ReactNode } from 'react';

export type ConfirmAction = {
  label: string;
  color?: 'red';
  variant?: 'solid' | 'soft';
  disabled?: boolean;
  /** Does the action; a thrown error stays in the dialog as `errorMessage(error)` and the dialog stays open. */
  run: () => Promise<unknown>;
};

export type TriggerProps = {
  onClick?: (event: MouseEvent<HTMLElement>) => void;
  onPointerEnter?: () => void;
  onFocus?: () => void;
};

export type ConfirmDialogProps = {
  /** The button that opens the dialog. */
  trigger: ReactElement<TriggerProps>;
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
  /** The dismissing button's words: 'Cancel' unless the screen speaks another language (a candidate's). */
  cancelLabel?: string;
};
