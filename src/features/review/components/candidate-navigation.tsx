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

/**
 * 'Previous candidate' and 'Next candidate': links at both ends of the pipeline, so a screen reader announces them
 * alike; at an end the link is disabled (aria-disabled, still focusable so it is found and heard as unavailable) and
 * goes nowhere.
 */
export function CandidateNavigation({ neighbours }: { neighbours: Neighbours }) {
  return (
    <>
      <NavigationLink href={neighbours.previous} label="Previous candidate" />
      <NavigationLink href={neighbours.next} label="Next candidate" />
    </>
  );
}

export function NavigationLink({ href, label }: { href: string | null; label: string }) {
  if (!href) {
    return (
      <Button asChild variant="soft" color="gray">
        {/* no href: nothing to follow; Radix's own disabled look through data-disabled */}
        <a role="link" aria-disabled="true" tabIndex={0} data-disabled="">
          {label}
        </a>
      </Button>
    );
  }
  return (
    <Button asChild variant="soft">
      <Link to={href}>{label}</Link>
    </Button>
  );
}
