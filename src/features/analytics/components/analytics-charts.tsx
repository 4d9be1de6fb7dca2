import type { ReactNode } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  LabelList,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

import { formatDuration, formatShare, type DurationRow, type FunnelRow, type QuestionRow, type ReminderRow, type WeekRow } from './analytics-model';

/**
 * The analytics screen's charts (recharts), a module of their own that the screen imports when it renders, so the
 * chart library is downloaded with the analytics screen only. Each chart is a picture of the table beside it: to
 * assistive technology it is one image named by what it shows, and the table holds the numbers.
 */

const ACCENT = 'var(--accent-9)';
const SOFT = 'var(--accent-6)';
const GRAY = 'var(--gray-8)';
const TEXT = 'var(--gray-11)';
const tick = { fill: TEXT, fontSize: 12 };

function Frame({ label, height, children }: { label: string; height: number; children: ReactNode }) {
  return (
    <div role="img" aria-label={`${label}. The numbers are in the table beside it.`} style={{ width: '100%', height, minWidth: 0 }} data-chart>
      <ResponsiveContainer width="100%" height="100%">
        {children}
      </ResponsiveContainer>
    </div>
  );
}

const percentAxis = (value: number) => formatShare(value);

/** The series in the order they are drawn, their names in the text's color (a light series' own color is hard to read). */
const legend = {
  itemSorter: null,
  formatter: (value: unknown) => <span style={{ color: 'var(--gray-12)' }}>{String(value)}</span>,
} as const;

export function FunnelChart({ rows }: { rows: FunnelRow[] }) {
  return (
    <Frame label="Bar chart of the candidates at each stage of the funnel" height={260}>
      <BarChart data={rows} layout="vertical" margin={{ left: 8, right: 40 }} accessibilityLayer={false}>
        <CartesianGrid horizontal={false} stroke="var(--gray-5)" />
        <XAxis type="number" allowDecimals={false} tick={tick} />
        <YAxis type="category" dataKey="label" width={96} tick={tick} />
        <Tooltip cursor={{ fill: 'var(--gray-3)' }} />
        <Bar dataKey="candidates" name="Candidates" fill={ACCENT} isAnimationActive={false}>
          <LabelList dataKey="candidates" position="right" fill={TEXT} fontSize={12} />
        </Bar>
      </BarChart>
    </Frame>
  );
}

export function QuestionsChart({ rows }: { rows: QuestionRow[] }) {
  return (
    <Frame label="Bar chart of the candidates who reached, answered and stopped at each question" height={Math.max(200, 48 + rows.length * 44)}>
      <BarChart data={rows} layout="vertical" margin={{ left: 8, right: 24 }} accessibilityLayer={false}>
        <CartesianGrid horizontal={false} stroke="var(--gray-5)" />
        <XAxis type="number" allowDecimals={false} tick={tick} />
        <YAxis type="category" dataKey="label" width={150} tick={tick} />
        <Tooltip cursor={{ fill: 'var(--gray-3)' }} />
        <Legend {...legend} />
        <Bar dataKey="reached" name="Reached" fill={SOFT} isAnimationActive={false} />
        <Bar dataKey="answered" name="Answered" fill={ACCENT} isAnimationActive={false} />
        <Bar dataKey="stopped" name="Stopped here" fill="var(--red-9)" isAnimationActive={false} />
      </BarChart>
    </Frame>
  );
}

export function DurationChart({ rows }: { rows: DurationRow[] }) {
  return (
    <Frame label="Bar chart of the median and 90th-percentile time to complete" height={220}>
      <BarChart data={rows} margin={{ left: 8, right: 8 }} accessibilityLayer={false}>
        <CartesianGrid vertical={false} stroke="var(--gray-5)" />
        <XAxis dataKey="label" tick={tick} />
        <YAxis tickFormatter={(value: number) => formatDuration(value)} width={80} tick={tick} />
        <Tooltip formatter={(value) => formatDuration(Number(value))} cursor={{ fill: 'var(--gray-3)' }} />
        <Legend {...legend} />
        <Bar dataKey="medianSeconds" name="Median" fill={ACCENT} isAnimationActive={false} />
        <Bar dataKey="p90Seconds" name="90th percentile" fill={GRAY} isAnimationActive={false} />
      </BarChart>
    </Frame>
  );
}

export function WeeksChart({ rows }: { rows: WeekRow[] }) {
  return (
    <Frame label="Chart of the candidates invited each week and the share of them who completed" height={260}>
      <ComposedChart data={rows} margin={{ left: 8, right: 8 }} accessibilityLayer={false}>
        <CartesianGrid vertical={false} stroke="var(--gray-5)" />
        <XAxis dataKey="label" tick={tick} />
        <YAxis yAxisId="count" allowDecimals={false} tick={tick} />
        <YAxis yAxisId="rate" orientation="right" domain={[0, 1]} tickFormatter={percentAxis} tick={tick} />
        <Tooltip formatter={(value, name) => (name === 'Completion rate' ? formatShare(Number(value)) : value)} />
        <Legend {...legend} />
        <Bar yAxisId="count" dataKey="invited" name="Invited" fill={SOFT} isAnimationActive={false} />
        <Line yAxisId="rate" dataKey="rate" name="Completion rate" stroke={ACCENT} strokeWidth={2} connectNulls isAnimationActive={false} />
      </ComposedChart>
    </Frame>
  );
}

export function RemindersChart({ rows }: { rows: ReminderRow[] }) {
  return (
    <Frame label="Bar chart of the completion rate of reminded candidates and of the others" height={200}>
      <BarChart data={rows} margin={{ left: 8, right: 8 }} accessibilityLayer={false}>
        <CartesianGrid vertical={false} stroke="var(--gray-5)" />
        <XAxis dataKey="label" tick={tick} />
        <YAxis domain={[0, 1]} tickFormatter={percentAxis} tick={tick} />
        <Tooltip formatter={(value) => formatShare(Number(value))} cursor={{ fill: 'var(--gray-3)' }} />
        <Bar dataKey="rate" name="Completion rate" fill={ACCENT} isAnimationActive={false}>
          <LabelList dataKey="rate" position="top" formatter={(value) => formatShare(value === null || value === undefined ? null : Number(value))} fill={TEXT} fontSize={12} />
        </Bar>
      </BarChart>
    </Frame>
  );
}
