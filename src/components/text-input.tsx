import { TextField } from '@radix-ui/themes';
import { useId, type ComponentProps } from 'react';

import { Field } from './field';

type TextInputProps = ComponentProps<typeof TextField.Root> & {
  label: string;
  /** The field's validation message, shown under it in red. */
  error?: string | undefined;
};

/** A labelled text field with its error underneath; spread react-hook-form's `register(name)` into it. */
export function TextInput({ label, error, id, ref, ...props }: TextInputProps) {
  const generatedId = useId();
  return (
    <Field id={id ?? generatedId} label={label} error={error}>
      {(control) => <TextField.Root ref={ref} {...control} {...props} />}
    </Field>
  );
}
