import { Button } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router-dom';

import type { CandidatesResponse } from '@/lib/pocketbase-types';

import { inPipeline, neighbourQuery, reviewHref, type ReviewPosition } from '../api/candidate-neighbours';
import { reviewQueries } from '../api/review-candidate';

type Neighbours = { previous: string | null; next: string | null };

/**
 * The reviews before and after this one in the pipeline's order and filter, as links that keep the pipeline's
 * params (and move `i` along); null at an end or while not known yet. Their reviews are fetched ahead, so moving
 * shows the next candidate at once.
 */
export function useCandidateNeighbours(companyId: string, jobId: string, candidate: CandidatesResponse, position: ReviewPosition): Neighbours {
  const queryClient = useQueryClient();
  const previous = useQuery(neighbourQuery(jobId, position.state, candidate, 'previous'));
  const next = useQuery(neighbourQuery(jobId, position.state, candidate, 'next'));

  useEffect(() => {
    for (const id of [previous.data, next.data]) if (id) void queryClient.prefetchQuery(reviewQueries.detail(id));
  }, [previous.data, next.data, queryClient]);

  const { state, index } = position;
  // a candidate a change here took out of the filtered list leaves its successor at its own index
  const nextIndex = index === null ? null : inPipeline(candidate, state) ? index + 1 : index;
  const previousIndex = index === null || index === 0 ? null : index - 1;
  return {
    previous: previous.data ? reviewHref(companyId, jobId, previous.data, state, previousIndex) : null,
    next: next.data ? reviewHref(companyId, jobId, next.data, state, nextIndex) : null,
  };
}

/** 'Previous candidate' and 'Next candidate', disabled at the ends of the pipeline. */
export function CandidateNavigation({ neighbours }: { neighbours: Neighbours }) {
  return (
    <>
      <NavigationButton href={neighbours.previous} label="Previous candidate" />
      <NavigationButton href={neighbours.next} label="Next candidate" />
    </>
  );
}

function NavigationButton({ href, label }: { href: string | null; label: string }) {
  if (!href) {
    return (
      <Button variant="soft" color="gray" disabled>
        {label}
      </Button>
    );
  }
  return (
    <Button asChild variant="soft">
      <Link to={href}>{label}</Link>
    </Button>
  );
}
