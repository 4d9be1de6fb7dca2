import { Button, Flex, Text, VisuallyHidden } from '@radix-ui/themes';
import { useId } from 'react';

import { formatStars, type RatingSummary } from '../api/review-ratings';

import './review.css';

const STARS = [1, 2, 3, 4, 5] as const;

export const starsLabel = (stars: number) => (stars === 1 ? '1 star' : `${stars} stars`);

export function averageLabel({ average, raters }: Pick<RatingSummary, 'average' | 'raters'>): string {
  if (average === null) return 'No ratings yet';
  return `Average ${formatStars(average)} from ${raters} ${raters === 1 ? 'manager' : 'managers'}`;
}

type AnswerRatingProps = {
  summary: RatingSummary;
  /** 1-5 sets the manager's rating, null clears it. */
  onRate: (stars: number | null) => void;
};

/**
 * The manager's 1-5 stars on one answer: a group of native radio buttons ('1 star' ... '5 stars'), so arrow keys
 * move the rating and screen readers announce it; clicking the current rating, or 'Clear', clears it. Beside it the
 * average of every manager's rating and how many rated.
 */
export function AnswerRating({ summary, onRate }: AnswerRatingProps) {
  const id = useId();
  const { own } = summary;
  return (
    <Flex direction="column" gap="1">
      <Flex align="center" gap="2" wrap="wrap">
        <Text as="div" size="2" weight="medium" id={`${id}-label`}>
          Your rating
        </Text>
        <div role="radiogroup" aria-labelledby={`${id}-label`} className="review-stars">
          {STARS.map((stars) => (
            <label key={stars} className="review-star" data-filled={own !== null && stars <= own ? '' : undefined}>
              <input
                type="radio"
                name={`${id}-stars`}
                value={stars}
                checked={own === stars}
                onChange={() => onRate(stars)}
                // a click on the rating already chosen clears it (the radio itself cannot be unchecked)
                onClick={() => {
                  if (own === stars) onRate(null);
                }}
              />
              <span className="review-star-glyph" aria-hidden="true">
                ★
              </span>
              <VisuallyHidden>{starsLabel(stars)}</VisuallyHidden>
            </label>
          ))}
        </div>
        {own !== null && (
          <Button type="button" size="1" variant="ghost" color="gray" onClick={() => onRate(null)}>
            Clear
          </Button>
        )}
      </Flex>
      <Text size="1" color="gray" data-testid="answer-average">
        {averageLabel(summary)}
      </Text>
      <VisuallyHidden aria-live="polite">{own === null ? '' : `Your rating: ${starsLabel(own)}`}</VisuallyHidden>
    </Flex>
  );
}
