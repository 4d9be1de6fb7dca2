import { TextField } from '@radix-ui/themes';
import { forwardRef, useId, type ComponentPropsWithoutRef } from 'react';

import { Field } from './field';

type TextInputProps = ComponentPropsWithoutRef<typeof TextField.Root> & {
  label: string;
  /** The field's validation message, shown under it in red. */
  error?: string | undefined;
};

/**
 * A labelled text field with its error underneath; spread react-hook-form's `register(name)` into it. The ref goes
 * through `forwardRef`, not a `ref` prop: Preact (which runs the app, issue 20) takes `ref` out of a component's props,
 * and react-hook-form reads the field's value through that ref.
 */
export const TextInput = forwardRef<HTMLInputElement, TextInputProps>(function TextInput(
  { label, error, id, ...props },
  ref,
) {
  const generatedId = useId();
  return (
    <Field id={id ?? generatedId} label={label} error={error}>
      {(control) => <TextField.Root ref={ref} {...control} {...props} />}
    </Field>
  );
});
