import { Flex, Text, TextField } from '@radix-ui/themes';
import { useId, type ComponentProps } from 'react';

type TextInputProps = ComponentProps<typeof TextField.Root> & {
  label: string;
  /** The field's validation message, shown under it in red. */
  error?: string;
};

/** A labelled text field with its error underneath; spread react-hook-form's `register(name)` into it. */
export function TextInput({ label, error, id, ...props }: TextInputProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = `${inputId}-error`;
  return (
    <Flex direction="column" gap="1">
      <Text asChild size="2" weight="medium">
        <label htmlFor={inputId}>{label}</label>
      </Text>
      <TextField.Root
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...props}
      />
      {error ? (
        <Text id={errorId} size="1" color="red">
          {error}
        </Text>
      ) : null}
    </Flex>
  );
}
