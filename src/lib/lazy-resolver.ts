import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A react-hook-form resolver whose zod schema (and zod, and @hookform/resolvers) is downloaded only when the form is
 * first used: `preload` on the form's first focus (`<form onFocus={resolver.preload}>`), or at the first validation.
 * zod is 24 KB gzip: a first visit to a screen with a form (sign-in) does without it (issue 20), and the download runs
 * while the visitor types. It validates exactly as `zodResolver(schema)`; a submit that comes before the download
 * ended waits for it. react-hook-form awaits a resolver, so nothing else changes.
 */
export function lazyZodResolver<Input extends FieldValues, Output extends FieldValues>(
  load: () => Promise<z.ZodType<Output, Input>>,
): Resolver<Input, unknown, Output> & { preload: () => void } {
  type Resolve = Resolver<Input, unknown, Output>;
  let loading: Promise<Resolve> | null = null;
  const get = () =>
    (loading ??= Promise.all([load(), import('@hookform/resolvers/zod')]).then(
      ([schema, { zodResolver }]) => zodResolver(schema),
    ));
  const resolver: Resolve = async (values, context, options) => {
    const resolve = await get().catch((error: unknown) => {
      // a failed download (a new deploy, the network) is tried again on the next submit
      loading = null;
      throw error;
    });
    return resolve(values, context, options);
  };
  /** Starts the download (once; again after a failed one). */
  const preload = () => void get().catch(() => (loading = null));
  return Object.assign(resolver, { preload });
}
