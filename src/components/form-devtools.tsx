import { lazy, Suspense } from 'react';
import type { Control, FieldValues } from 'react-hook-form';

/**
 * The form developer panel (spec §2), for development builds only. `import.meta.env.DEV` is a constant `false` in a
 * production build, so the bundler drops the dynamic import and @hookform/devtools never reaches dist/. Component
 * tests run in the 'test' mode, where the panel would only add noise.
 */
const SHOW_DEVTOOLS = import.meta.env.DEV && import.meta.env.MODE !== 'test';

const DevTool = SHOW_DEVTOOLS
  ? lazy(() => import('@hookform/devtools').then((module) => ({ default: module.DevTool })))
  : null;

type FormDevtoolsProps<T extends FieldValues, C, O extends FieldValues> = {
  /** The form's control, as returned by useForm(); the panel reads the form's state from it. */
  control: Control<T, C, O>;
};

/** Put it inside every form: `<FormDevtools control={form.control} />`. Renders nothing in production. */
export function FormDevtools<T extends FieldValues, C, O extends FieldValues>({ control }: FormDevtoolsProps<T, C, O>) {
  if (!DevTool) return null;
  return (
    <Suspense fallback={null}>
      <DevTool control={control as unknown as Control<FieldValues>} placement="top-right" />
    </Suspense>
  );
}
