import { Button, Callout, Container, Flex } from '@radix-ui/themes';
import { ClientResponseError } from 'pocketbase';
import { useQuery } from '@tanstack/react-query';
import { Suspense, type ReactNode } from 'react';
import { Outlet, useParams, useRouteError, type LoaderFunctionArgs } from 'react-router-dom';

import { PageSpinner } from '@/components/page-spinner';
import { Logo } from '@/components/logo';
import { interviewQueries } from '@/features/interview/api/interview-get';
import { resumeAnswerUploads } from '@/features/interview/api/answer-uploads';
import { InterviewBrand } from '@/features/interview/components/interview-brand';
import { InterviewClosedPage } from '@/features/interview/components/interview-closed';
import { InterviewInvalidLink } from '@/features/interview/components/interview-invalid-link';
import {
  InterviewUploadStatus,
  useConfirmLeaveWhileUploading,
} from '@/features/interview/components/interview-upload-status';
import { getErrorMessage } from '@/lib/errors';
import { queryClient } from '@/lib/query-client';

/** Loads the interview before any screen renders, and picks up answers an earlier visit left to upload. */
export async function candidateLayoutLoader({ params }: LoaderFunctionArgs) {
  const candidateId = params.candidateId ?? '';
  await Promise.all([queryClient.ensureQueryData(interviewQueries.detail(candidateId)), resumeAnswerUploads()]);
  return null;
}

/** `candidateKey`: the company's brand heads the frame (issue 17); without an interview (a bad link) the product's. */
function Frame({ children, candidateKey }: { children: ReactNode; candidateKey?: string }) {
  return (
    <Container size="2" px="4" py="6">
      <Flex justify="center" mb="6">
        {candidateKey ? <InterviewBrand candidateKey={candidateKey} /> : <Logo />}
      </Flex>
      <main>{children}</main>
    </Container>
  );
}

/** The candidate's interview frame; kept apart from the manager shell so candidates never load it. */
export function CandidateLayout() {
  const { candidateId = '' } = useParams();
  useConfirmLeaveWhileUploading();
  // The deadline passed or the invitation was withdrawn (issue 17): every candidate route shows the closed page.
  const { data: interview } = useQuery(interviewQueries.detail(candidateId));
  const closed = interview?.closed;
  return (
    <Frame candidateKey={candidateId}>
      <InterviewUploadStatus candidateId={candidateId} />
      {closed ? (
        <InterviewClosedPage interview={interview} closed={closed} />
      ) : (
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      )}
    </Frame>
  );
}

/** An unknown candidate id is a friendly dead end, never a crash. */
export function CandidateLayoutError() {
  const error = useRouteError();
  const unknown = error instanceof ClientResponseError && (error.status === 404 || error.status === 400 || error.status === 410);
  return (
    <Frame>
      {unknown ? (
        <InterviewInvalidLink replaced={error.status === 410} />
      ) : (
        <Flex direction="column" align="center" gap="4" py="6">
          <Callout.Root color="red" role="alert">
            <Callout.Text>{getErrorMessage(error)}</Callout.Text>
          </Callout.Root>
          <Button variant="soft" onClick={() => window.location.reload()}>
            Reload the page
          </Button>
        </Flex>
      )}
    </Frame>
  );
}
