import '@/components/native-select.css';

import { Button, Flex, TextField } from '@radix-ui/themes';
import type { UseFormRegisterReturn } from 'react-hook-form';

import { Field } from '@/components/field';
import { EXTRA_TAKES_MAX, EXTRA_TIME_OPTIONS } from '@/lib/deadline';

/**
 * The fields an invite's deadline and adjustments are set with, on the invite form and on the candidate's review
 * (issue 17 points 5 and 6). Each takes react-hook-form's `register(name)`.
 */

type Registered = UseFormRegisterReturn;

/** A date-time in the manager's time zone; 'No deadline' empties it. */
export function DeadlineField({
  id,
  label = 'Deadline',
  error,
  hint,
  onClear,
  registered,
}: {
  id: string;
  label?: string;
  error: string | undefined;
  hint?: string;
  onClear?: () => void;
  registered: Registered;
}) {
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      {(control) => (
        <Flex gap="2" align="center" wrap="wrap">
          <TextField.Root {...control} type="datetime-local" style={{ minWidth: '14rem' }} {...registered} />
          {onClear ? (
            <Button type="button" size="1" variant="ghost" color="gray" onClick={onClear}>
              No deadline
            </Button>
          ) : null}
        </Flex>
      )}
    </Field>
  );
}

/** Extra time (None, 1.5×, 2×, no limit) and extra takes (0 to 10) for one candidate. */
export function AdjustmentFields({
  id,
  extraTimeError,
  extraTakesError,
  extraTime,
  extraTakes,
}: {
  id: string;
  extraTimeError?: string | undefined;
  extraTakesError?: string | undefined;
  extraTime: UseFormRegisterReturn;
  extraTakes: Registered;
}) {
  return (
    <Flex gap="4" wrap="wrap" align="start">
      <Field id={`${id}-extra-time`} label="Extra time" error={extraTimeError}>
        {(control) => (
          <select {...control} className="native-select" {...extraTime}>
            {EXTRA_TIME_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id={`${id}-extra-takes`} label="Extra takes" error={extraTakesError}>
        {(control) => (
          <TextField.Root
            {...control}
            type="number"
            inputMode="numeric"
            min={0}
            max={EXTRA_TAKES_MAX}
            style={{ maxWidth: '6rem' }}
            {...extraTakes}
          />
        )}
      </Field>
    </Flex>
  );
}
