/** PocketBase dates ('2024-05-01 10:00:00.000Z') as the user's local date and time. */
export function formatDateTime(value: string): string {
  if (!value) return '';
  const date = new Date(value.replace(' ', 'T'));
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
