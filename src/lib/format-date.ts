const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** A PocketBase date ('2024-01-31 09:15:00.000Z') as the tables show it; '' for an empty date. */
export function formatDate(value: string): string {
  if (!value) return '';
  const date = new Date(value.replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? value : dateFormat.format(date);
}

const dayFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** A PocketBase date as a day ('Jan 31, 2024'), where the time of day would only crowd a cell; '' for an empty date. */
export function formatDay(value: string): string {
  if (!value) return '';
  const date = new Date(value.replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? value : dayFormat.format(date);
}
