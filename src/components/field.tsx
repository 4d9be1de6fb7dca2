import { Flex, Text } from '@radix-ui/themes';
import type { ReactNode } from 'react';

/**
 * A labelled form control with its validation message in red under it (spec §5). The control gets
 * `id`, `aria-invalid` and `aria-describedby` from the render prop so the message is announced with it.
 */
export function Field({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  children: (control: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode;
}) {
  const messageId = `${id}-message`;
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      {children({ id, 'aria-invalid': Boolean(error), ...(error ? { 'aria-describedby': messageId } : {}) })}
      {error ? (
        <Text id={messageId} size="1" color="red" role="alert">
          {error}
        </Text>
      ) : hint ? (
        <Text size="1" color="gray">
          {hint}
        </Text>
      ) : null}
    </Flex>
  );
}
