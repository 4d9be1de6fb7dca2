import { Heading } from '@radix-ui/themes';

export function CandidateReviewScreen() {
  return <Heading as="h1">Candidate</Heading>;
}
