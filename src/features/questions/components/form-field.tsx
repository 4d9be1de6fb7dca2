import { Flex, Text } from '@radix-ui/themes';
import type { ReactNode } from 'react';

type FormFieldProps = {
  /** The id of the control the label names. */
  htmlFor: string;
  label: string;
  error?: string;
  children: ReactNode;
};

/** A labelled control with its validation message under it, in red (spec §5). */
export function FormField({ htmlFor, label, error, children }: FormFieldProps) {
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={htmlFor} size="2" weight="medium">
        {label}
      </Text>
      {children}
      {error ? (
        <Text id={`${htmlFor}-error`} size="1" color="red">
          {error}
        </Text>
      ) : null}
    </Flex>
  );
}

/** aria attributes tying a control to its FormField message. */
export function describedBy(id: string, error: string | undefined) {
  return error ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {};
}
