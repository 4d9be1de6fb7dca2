import { Table, VisuallyHidden } from '@radix-ui/themes';

/** The header of a table's column of row actions: blank on screen, named for screen readers (every column has one). */
export function ActionsHeaderCell() {
  return (
    <Table.ColumnHeaderCell>
      <VisuallyHidden>Actions</VisuallyHidden>
    </Table.ColumnHeaderCell>
  );
}
