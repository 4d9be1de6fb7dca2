import type { CsvValue } from '@/lib/csv';

import type { AnalyticsFigures, DurationFigures } from '../api/analytics-queries';

/**
 * What the analytics screen shows, as rows: each chart draws one of these and the table beside it lists the same
 * rows with their numbers, and the CSV holds every table.
 */

export type FunnelRow = { stage: string; label: string; candidates: number; ofInvited: number | null; ofPrevious: number | null };

const STAGES: { key: keyof AnalyticsFigures['funnel']; label: string }[] = [
  { key: 'invited', label: 'Invited' },
  { key: 'linkOpened', label: 'Link opened' },
  { key: 'agreed', label: 'Agreed' },
  { key: 'started', label: 'Started' },
  { key: 'completed', label: 'Completed' },
  { key: 'decided', label: 'Decided' },
];

/** A share as a fraction (0 to 1), or null when there is nothing to divide by. */
export function share(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}

const percentFormat = new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 0, maximumFractionDigits: 1 });

/** '62.5%', or '—' when there is nothing to divide by. */
export function formatShare(value: number | null): string {
  return value === null ? '—' : percentFormat.format(value);
}

/** A share as the CSV holds it: a percentage to one decimal, empty when there is none. */
function csvShare(value: number | null): CsvValue {
  return value === null ? '' : Math.round(value * 1000) / 10;
}

export function funnelRows(figures: AnalyticsFigures): FunnelRow[] {
  const invited = figures.funnel.invited;
  return STAGES.map(({ key, label }, index) => {
    const candidates = figures.funnel[key];
    // decided is not a step after completed (a candidate may be put on hold before finishing): its share is of the
    // invited only
    const previous = index === 0 || key === 'decided' ? null : figures.funnel[STAGES[index - 1]!.key];
    return {
      stage: key,
      label,
      candidates,
      ofInvited: index === 0 ? null : share(candidates, invited),
      ofPrevious: previous === null ? null : share(candidates, previous),
    };
  });
}

export function decisionRows(figures: AnalyticsFigures): { label: string; candidates: number }[] {
  return [
    { label: 'Advance', candidates: figures.decisions.advance },
    { label: 'Hold', candidates: figures.decisions.hold },
    { label: 'Reject', candidates: figures.decisions.reject },
  ];
}

export type QuestionRow = AnalyticsFigures['questions'][number] & { label: string };

export function questionRows(figures: AnalyticsFigures): QuestionRow[] {
  return figures.questions.map((question) => ({
    ...question,
    label: question.position > 0 ? `${question.position}. ${question.title}` : question.title || 'Deleted question',
  }));
}

/** '45 s', '12 min 30 s', '3 h 5 min', '2 d 4 h'; '—' for none. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) {
    const s = seconds % 60;
    return `${Math.floor(seconds / 60)} min${s ? ` ${s} s` : ''}`;
  }
  if (seconds < 86_400) {
    const m = Math.floor((seconds % 3600) / 60);
    return `${Math.floor(seconds / 3600)} h${m ? ` ${m} min` : ''}`;
  }
  const h = Math.floor((seconds % 86_400) / 3600);
  return `${Math.floor(seconds / 86_400)} d${h ? ` ${h} h` : ''}`;
}

export type DurationRow = { label: string } & DurationFigures;

export function durationRows(figures: AnalyticsFigures): DurationRow[] {
  return [
    { label: 'From the first question opened', ...figures.timeToComplete },
    { label: 'From the invite', ...figures.inviteToComplete },
  ];
}

export type WeekRow = { week: string; label: string; invited: number; completed: number; rate: number | null };

const weekFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/** A week's Monday ('2024-03-04') as the table says it: 'Mar 4, 2024'. */
export function formatWeek(monday: string): string {
  const date = new Date(`${monday}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? monday : weekFormat.format(date);
}

export function weekRows(figures: AnalyticsFigures): WeekRow[] {
  const rows = figures.weeks.map((week) => ({
    week: week.week,
    label: formatWeek(week.week),
    invited: week.invited,
    completed: week.completed,
    rate: share(week.completed, week.invited),
  }));
  const earlier = figures.earlierWeeks;
  if (earlier) {
    rows.unshift({
      week: `before ${earlier.before}`,
      label: `Before ${formatWeek(earlier.before)}`,
      invited: earlier.invited,
      completed: earlier.completed,
      rate: share(earlier.completed, earlier.invited),
    });
  }
  return rows;
}

export type ReminderRow = { label: string; candidates: number; completed: number; rate: number | null; completedAfter: number | null };

export function reminderRows(figures: AnalyticsFigures): ReminderRow[] {
  const { reminded, notReminded } = figures.reminders;
  return [
    { label: 'Reminded', ...reminded, rate: share(reminded.completed, reminded.candidates) },
    { label: 'Not reminded', ...notReminded, rate: share(notReminded.completed, notReminded.candidates), completedAfter: null },
  ];
}

/** The company's jobs, most invited first. */
export function jobRows(figures: AnalyticsFigures) {
  return [...(figures.jobs ?? [])]
    .sort((a, b) => b.invited - a.invited || a.title.localeCompare(b.title))
    .map((job) => ({ ...job, rate: share(job.completed, job.invited) }));
}

/**
 * Every table of the screen as one CSV: a row per cell, 'Section, Row, Column, Value' (a layout a spreadsheet's pivot
 * table reads whatever the section), the shares as percentages to one decimal.
 */
export function analyticsCsvRows(figures: AnalyticsFigures): CsvValue[][] {
  const rows: CsvValue[][] = [['Section', 'Row', 'Column', 'Value']];
  const add = (section: string, row: string, column: string, value: CsvValue) => rows.push([section, row, column, value]);
  add('Scope', figures.scope === 'job' ? 'Job' : 'Company', 'Name', figures.title);
  add('Scope', 'Figures as of', 'Time', figures.asOf);
  add('Scope', 'Invite weeks', 'Time zone', figures.timeZone);
  for (const row of funnelRows(figures)) {
    add('Funnel', row.label, 'Candidates', row.candidates);
    add('Funnel', row.label, '% of invited', csvShare(row.ofInvited));
    add('Funnel', row.label, '% of previous stage', csvShare(row.ofPrevious));
  }
  for (const row of decisionRows(figures)) add('Decisions', row.label, 'Candidates', row.candidates);
  for (const row of questionRows(figures)) {
    add('Questions', row.label, 'Reached', row.reached);
    add('Questions', row.label, 'Answered', row.answered);
    add('Questions', row.label, 'Stopped here', row.stopped);
  }
  for (const row of durationRows(figures)) {
    add('Time to complete', row.label, 'Median (seconds)', row.medianSeconds);
    add('Time to complete', row.label, '90th percentile (seconds)', row.p90Seconds);
    add('Time to complete', row.label, 'Candidates', row.candidates);
  }
  for (const row of weekRows(figures)) {
    add('Invite weeks', row.week, 'Invited', row.invited);
    add('Invite weeks', row.week, 'Completed', row.completed);
    add('Invite weeks', row.week, 'Completion rate %', csvShare(row.rate));
  }
  for (const row of reminderRows(figures)) {
    add('Reminders', row.label, 'Candidates', row.candidates);
    add('Reminders', row.label, 'Completed', row.completed);
    add('Reminders', row.label, 'Completion rate %', csvShare(row.rate));
    if (row.completedAfter !== null) add('Reminders', row.label, 'Completed after a reminder', row.completedAfter);
  }
  for (const job of jobRows(figures)) {
    add('Jobs', job.title, 'Invited', job.invited);
    add('Jobs', job.title, 'Started', job.started);
    add('Jobs', job.title, 'Completed', job.completed);
    add('Jobs', job.title, 'Decided', job.decided);
    add('Jobs', job.title, 'Completion rate %', csvShare(job.rate));
  }
  return rows;
}
