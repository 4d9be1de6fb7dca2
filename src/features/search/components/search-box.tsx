import { Button, Flex, TextField } from '@radix-ui/themes';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';

import { paths } from '@/config/paths';

type Props = {
  companyId: string;
  /** What the box holds at first (the results screen's query). */
  initialQuery?: string;
};

/**
 * The manager's search box (issue 18): words or a "quoted phrase", across the company's transcripts and text answers.
 * A plain controlled input (no form library in the shell for one field); submitting opens the results screen.
 */
export function SearchBox({ companyId, initialQuery = '' }: Props) {
  const navigate = useNavigate();
  const [query, setQuery] = useState(initialQuery);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = query.trim();
    if (q) void navigate(paths.companies.search.href(companyId, q));
  };
  return (
    <form role="search" aria-label="Search answers" onSubmit={submit}>
      <Flex gap="2" align="center">
        <TextField.Root
          type="search"
          name="q"
          size="2"
          aria-label="Search answers"
          placeholder="Search answers"
          maxLength={200}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          style={{ minWidth: '12rem' }}
        />
        <Button type="submit" size="2" variant="soft">
          Search
        </Button>
      </Flex>
    </form>
  );
}
