import { Button, Card, Flex, Heading, Link as RadixLink, Spinner, Text } from '@radix-ui/themes';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router-dom';

import { LoadError } from '@/components/load-error';
import { paths } from '@/config/paths';
import { formatTime } from '@/components/timed-transcript';

import { searchQueries, snippetParts, type SearchHit } from '../api/search-answers';
import { SearchBox } from '../components/search-box';

/**
 * Search results (issue 18 point 3): the company's answers that hold every word searched for (any form of it) or
 * the quoted phrase, best first, each with its passage highlighted and a link to the review at that answer, at the
 * moment it is said when the transcript has times.
 */
export function SearchResultsScreen() {
  const { companyId = '' } = useParams();
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const results = useInfiniteQuery(searchQueries.results(companyId, q));
  const hits = results.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">Search answers</Heading>
      {/* a new query gives a fresh box */}
      <SearchBox key={q} companyId={companyId} initialQuery={q} />
      <Text size="2" color="gray">
        Finds answers with every word you type, in any form (hire, hired, hiring). Put words in quotes to find them as
        a phrase: &quot;customer support&quot;.
      </Text>
      {!q ? null : results.isPending ? (
        <Flex justify="center" p="6" aria-busy="true">
          <Spinner size="3" />
        </Flex>
      ) : results.isError ? (
        <LoadError error={results.error} />
      ) : hits.length === 0 ? (
        <Text role="status">No answers match {`“${q}”`}.</Text>
      ) : (
        <>
          <Text role="status" size="2" color="gray">
            {results.hasNextPage ? `The best ${hits.length} answers for “${q}”` : `${hits.length} ${hits.length === 1 ? 'answer' : 'answers'} for “${q}”`}
          </Text>
          <Flex asChild direction="column" gap="3">
            <ol aria-label="Search results" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {hits.map((hit) => (
                <li key={hit.answer}>
                  <SearchResult companyId={companyId} hit={hit} />
                </li>
              ))}
            </ol>
          </Flex>
          {results.hasNextPage ? (
            <Flex>
              <Button variant="soft" onClick={() => void results.fetchNextPage()} loading={results.isFetchingNextPage}>
                Show more
              </Button>
            </Flex>
          ) : null}
        </>
      )}
    </Flex>
  );
}

/** The review of the hit's candidate, opened at the answer (and the second the match is said). */
export function hitHref(companyId: string, hit: SearchHit): string {
  const params = new URLSearchParams({ answer: hit.answer });
  if (hit.startSeconds !== null) params.set('t', String(hit.startSeconds));
  return `${paths.companies.jobs.candidate.href(companyId, hit.job.id, hit.candidate.id)}?${params.toString()}`;
}

function SearchResult({ companyId, hit }: { companyId: string; hit: SearchHit }) {
  return (
    <Card>
      <Flex direction="column" gap="2">
        <Flex gap="2" wrap="wrap" align="baseline">
          <RadixLink asChild weight="medium">
            <Link to={hitHref(companyId, hit)}>{hit.candidate.email}</Link>
          </RadixLink>
          <Text size="2" color="gray">
            {hit.job.title} · {hit.question.title} · {hit.kind === 'video' ? 'Transcript' : 'Written answer'}
            {hit.startSeconds !== null ? ` at ${formatTime(hit.startSeconds)}` : ''}
          </Text>
        </Flex>
        <Text as="p" size="2">
          {snippetParts(hit.snippet).map((part, index) => (part.match ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>))}
        </Text>
      </Flex>
    </Card>
  );
}
