import '@/components/native-select.css';

import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Flex } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';

import { Field } from '@/components/field';
import { companyQueries } from '@/features/companies/api/company-queries';
import { applyServerErrors } from '@/lib/errors';
import { nameOrEmail } from '@/lib/person-name';

import { auditFilterSchema, EMPTY_FILTER, type AuditFilter } from '../schemas';

/** What the log calls each action, in the manager's words. */
export const ACTION_LABELS: Readonly<Record<string, string>> = {
  export: 'Exported data',
  erase: 'Erased candidate',
  retention_erase: 'Erased by retention',
  delete: 'Deleted candidate',
  job_delete: 'Deleted with their job',
  withdraw: 'Withdrew and deleted their answers',
};

/** Who acted, by kind, beside the company's managers by name (the server's `actor` values). */
const ACTOR_KINDS: readonly { value: string; label: string }[] = [
  { value: 'manager', label: 'Any manager' },
  { value: 'candidate', label: 'The candidate (withdrew)' },
  { value: 'retention', label: 'Retention' },
  { value: 'system', label: 'System' },
];

const FIELDS = ['actor', 'action', 'from', 'to'] as const;

/**
 * The audit log's filter: who acted, the action, and a range of days. Applied on submit (the screen puts it in the
 * address, so it survives a reload and can be shared); the server's refusal of a value lands on its field.
 */
export function AuditFilterForm({
  companyId,
  filter,
  serverError,
  onApply,
}: {
  companyId: string;
  filter: AuditFilter;
  /** the page read's error: a filter the server refused says so on its field */
  serverError: unknown;
  onApply: (filter: AuditFilter) => void;
}) {
  const id = useId();
  const company = useQuery(companyQueries.detail(companyId));
  const managers = company.data?.expand?.managers ?? [];
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<AuditFilter>({ resolver: zodResolver(auditFilterSchema), values: filter });

  useEffect(() => {
    if (serverError) applyServerErrors(serverError, setError, FIELDS);
  }, [serverError, setError]);

  const actorKnown = !filter.actor || ACTOR_KINDS.some((kind) => kind.value === filter.actor) || managers.some((m) => m.id === filter.actor);

  return (
    <form aria-label="Filter the audit log" noValidate onSubmit={handleSubmit(onApply)}>
      <Flex gap="3" align="end" wrap="wrap">
        <Field id={`${id}-actor`} label="Who" error={errors.actor?.message}>
          {(control) => (
            <select {...control} className="native-select" {...register('actor')}>
              <option value="">Anyone</option>
              {managers.map((manager) => (
                <option key={manager.id} value={manager.id}>
                  {nameOrEmail(manager)}
                </option>
              ))}
              {/* a manager no longer in the company, from a shared address: still the filter in use */}
              {actorKnown ? null : <option value={filter.actor}>A former manager</option>}
              {ACTOR_KINDS.map((kind) => (
                <option key={kind.value} value={kind.value}>
                  {kind.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id={`${id}-action`} label="Action" error={errors.action?.message}>
          {(control) => (
            <select {...control} className="native-select" {...register('action')}>
              <option value="">Any action</option>
              {Object.entries(ACTION_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id={`${id}-from`} label="From" error={errors.from?.message}>
          {(control) => <input {...control} type="date" className="native-select" {...register('from')} />}
        </Field>
        <Field id={`${id}-to`} label="To" error={errors.to?.message}>
          {(control) => <input {...control} type="date" className="native-select" {...register('to')} />}
        </Field>
        <Flex gap="2">
          <Button type="submit">Apply filter</Button>
          <Button type="button" variant="soft" color="gray" onClick={() => onApply(EMPTY_FILTER)}>
            Clear
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}
