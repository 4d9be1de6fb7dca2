import { useCallback, useState } from 'react';

import type { PipelineState } from '@/lib/pipeline-query';

import type { BulkSelection } from '../api/bulk-actions';

/** The most candidates one bulk action takes (server/internal/bulk MaxCandidates). */
export const MAX_BULK_CANDIDATES = 1000;

/** Compare shows two to four candidates side by side. */
export const COMPARE_MIN = 2;
export const COMPARE_MAX = 4;

/**
 * What the pipeline has selected: rows picked one by one (kept across pages and sorts, in the order picked, with
 * their e-mails for the screen's words), or every candidate the filter shows, however many pages they fill (the
 * server resolves the filter when the action runs, so nobody added or changed in between is missed).
 */
export type PipelineSelection =
  | { kind: 'rows'; rows: ReadonlyMap<string, string> }
  | { kind: 'matching'; total: number; filter: Pick<PipelineState, 'status' | 'decision' | 'q'> };

const NONE: PipelineSelection = { kind: 'rows', rows: new Map() };

export type SelectableRow = { id: string; email: string };

/** The selection of a pipeline whose filter is `filter`; a new filter starts with nothing selected. */
export function usePipelineSelection(filter: Pick<PipelineState, 'status' | 'decision' | 'q'>) {
  const filterKey = `${filter.status}\u0000${filter.decision}\u0000${filter.q.trim()}`;
  const [state, setState] = useState<{ key: string; selection: PipelineSelection }>({ key: filterKey, selection: NONE });
  // a selection made under another filter names rows this one may not show: it is dropped, never acted on
  const selection = state.key === filterKey ? state.selection : NONE;
  const set = useCallback((next: PipelineSelection) => setState({ key: filterKey, selection: next }), [filterKey]);

  const count = selection.kind === 'rows' ? selection.rows.size : selection.total;
  const isSelected = (id: string) => selection.kind === 'matching' || selection.rows.has(id);

  /** Picks or unpicks one row; unpicking one of "all matching" keeps the other rows of the page shown. */
  const toggle = (row: SelectableRow, page: readonly SelectableRow[]) => {
    const rows = new Map(selection.kind === 'rows' ? selection.rows : page.map((r) => [r.id, r.email] as const));
    if (selection.kind === 'rows' && !rows.has(row.id)) rows.set(row.id, row.email);
    else rows.delete(row.id);
    set({ kind: 'rows', rows });
  };

  /** Picks every row of the page shown, or, when all of them are picked, unpicks them. */
  const togglePage = (page: readonly SelectableRow[]) => {
    if (selection.kind === 'matching') return set(NONE);
    const rows = new Map(selection.rows);
    const all = page.every((r) => rows.has(r.id));
    for (const r of page) {
      if (all) rows.delete(r.id);
      else rows.set(r.id, r.email);
    }
    set({ kind: 'rows', rows });
  };

  const selectAllMatching = (total: number) => set({ kind: 'matching', total, filter: { status: filter.status, decision: filter.decision, q: filter.q.trim() } });
  const clear = () => set(NONE);

  /** The ids picked, in the order picked, when they are few enough to compare; otherwise null. */
  const compareIds =
    selection.kind === 'rows' && selection.rows.size >= COMPARE_MIN && selection.rows.size <= COMPARE_MAX ? [...selection.rows.keys()] : null;

  return { selection, count, isSelected, toggle, togglePage, selectAllMatching, clear, compareIds };
}

/** The request's part that names the candidates. */
export function bulkSelectionOf(selection: PipelineSelection): BulkSelection {
  return selection.kind === 'rows' ? { candidates: [...selection.rows.keys()] } : { filter: selection.filter };
}
