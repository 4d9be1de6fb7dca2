import { Button, Callout, Card, Container, Flex, Heading, Text } from '@radix-ui/themes';
import { ClientResponseError } from 'pocketbase';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useSyncExternalStore, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { Outlet, useMatch, useParams, useRouteError, type LoaderFunctionArgs } from 'react-router-dom';

import { PageSpinner } from '@/components/page-spinner';
import { Logo } from '@/components/logo';
import { paths } from '@/config/paths';
import { interviewQueries, type Interview } from '@/features/interview/api/interview-get';
import { answerUploads, resumeAnswerUploads } from '@/features/interview/api/answer-uploads';
import { resendLostAnswersOnce } from '@/features/interview/api/lost-answers';
import { InterviewBrand } from '@/features/interview/components/interview-brand';
import { InterviewClosedPage } from '@/features/interview/components/interview-closed';
import { InterviewInvalidLink } from '@/features/interview/components/interview-invalid-link';
import { LanguageSwitcher } from '@/features/interview/components/interview-language-switcher';
import {
  InterviewResentNote,
  InterviewUploadStatus,
  useConfirmLeaveWhileUploading,
} from '@/features/interview/components/interview-upload-status';
import { CandidateIntl, useCatalog } from '@/features/interview/i18n/candidate-intl';
import { candidateErrorKey } from '@/features/interview/i18n/error-keys';
import { loadMessages } from '@/features/interview/i18n/load-messages';
import {
  interviewLocale,
  linkLocale,
  storedLocale,
  subscribeStoredLocale,
} from '@/features/interview/i18n/locale-choice';
import { textDirection, type Locale } from '@/features/interview/i18n/locales';
import { queryClient } from '@/lib/query-client';

/**
 * Loads the interview and its language's messages before any screen renders, and picks up answers an earlier visit
 * left to upload, and those the server confirmed and lost since (a restore of its database), so the screens count
 * them as on their way. A language the candidate chose on this device starts loading at once, beside the read.
 */
export async function candidateLayoutLoader({ params }: LoaderFunctionArgs) {
  const candidateId = params.candidateId ?? '';
  const chosen = storedLocale(candidateId);
  if (chosen) void loadMessages(chosen).catch(() => undefined);
  try {
    const [interview] = await Promise.all([
      queryClient.ensureQueryData(interviewQueries.detail(candidateId)),
      resumeAnswerUploads(),
    ]);
    await Promise.all([loadMessages(interviewLocale(candidateId, interview)), resendLostAnswersOnce(candidateId, interview)]);
  } catch (error) {
    // a link no longer valid (the candidate was erased): what this device kept of their answers goes too
    if (error instanceof ClientResponseError && error.status === 404) void answerUploads.forgetCandidate(candidateId);
    // the error page speaks the language of the link too
    await loadMessages(linkLocale(candidateId)).catch(() => undefined);
    throw error;
  }
  return null;
}

/** The link's language: the switcher's choice for it, else the candidate's or the job's (the read), and its changes. */
function useWantedLocale(candidateKey: string, language?: { candidateLanguage?: string; language?: string }): Locale {
  const chosen = useSyncExternalStore(subscribeStoredLocale, () => storedLocale(candidateKey));
  return language ? interviewLocale(candidateKey, language) : (chosen ?? linkLocale(candidateKey));
}

/**
 * The candidate's frame, in their language and its direction: the language switcher at its inline end (the right,
 * or the left in Arabic), the company's brand heading it (issue 17) or, without an interview (a bad link), the
 * product's.
 */
function Frame({ children, candidateKey, brand, remember }: { children: ReactNode; candidateKey: string; brand: boolean; remember: boolean }) {
  const intl = useIntl();
  return (
    <Container size="2" px="4" py="6" dir={textDirection(intl.locale as Locale)} lang={intl.locale} data-testid="candidate-frame">
      <Flex justify="end" mb="3">
        <LanguageSwitcher candidateKey={candidateKey} remember={remember} />
      </Flex>
      <Flex justify="center" mb="6">
        {brand ? <InterviewBrand candidateKey={candidateKey} /> : <Logo />}
      </Flex>
      <main>{children}</main>
    </Container>
  );
}

/** Every candidate route of a link whose candidate withdrew and had their answers deleted. */
function InterviewWithdrawnPage() {
  const intl = useIntl();
  return (
    <Card size="4" data-testid="interview-withdrawn">
      <Flex direction="column" gap="3" align="start">
        <Heading as="h1" size="6">
          {intl.formatMessage({ id: 'withdrawn.heading' })}
        </Heading>
        <Text as="p">{intl.formatMessage({ id: 'withdrawn.text' })}</Text>
      </Flex>
    </Card>
  );
}

/** The candidate's interview frame; kept apart from the manager shell so candidates never load it. */
export function CandidateLayout() {
  const { candidateId = '' } = useParams();
  useConfirmLeaveWhileUploading();
  const { data: interview } = useQuery(interviewQueries.detail(candidateId));
  const catalog = useCatalog(useWantedLocale(candidateId, interview));
  if (!catalog) return <PageSpinner />;
  const withdrawn = Boolean(interview?.withdrawnAt);
  return (
    <CandidateIntl catalog={catalog}>
      <Frame candidateKey={candidateId} brand={!withdrawn} remember={!withdrawn}>
        <CandidateScreen candidateKey={candidateId} interview={interview} />
      </Frame>
    </CandidateIntl>
  );
}

function CandidateScreen({ candidateKey, interview }: { candidateKey: string; interview: Interview | undefined }) {
  const intl = useIntl();
  const onDataPage = useMatch(paths.candidates.data.path) !== null;
  if (interview?.withdrawnAt) return <InterviewWithdrawnPage />;
  // The deadline passed or the invitation was withdrawn (issue 17): every candidate route shows the closed page, but
  // the data-request page, where the candidate's right to have their answers deleted outlives the interview.
  const closed = interview?.closed;
  return (
    <>
      <InterviewResentNote candidateId={candidateKey} />
      <InterviewUploadStatus candidateId={candidateKey} />
      {closed && interview && !onDataPage ? (
        <InterviewClosedPage interview={interview} closed={closed} />
      ) : (
        <Suspense fallback={<PageSpinner label={intl.formatMessage({ id: 'frame.loading' })} />}>
          <Outlet />
        </Suspense>
      )}
    </>
  );
}

/** Said when not even a catalog could be fetched (the connection is gone): the one text no catalog carries. */
function Offline() {
  return (
    <Flex direction="column" align="center" gap="4" py="6">
      <Button variant="soft" onClick={() => window.location.reload()} aria-label="Reload">
        ↻
      </Button>
    </Flex>
  );
}

/** An unknown candidate id is a friendly dead end, never a crash; in the link's language. */
export function CandidateLayoutError() {
  const { candidateId = '' } = useParams();
  const error = useRouteError();
  const catalog = useCatalog(useWantedLocale(candidateId));
  if (!catalog) return <Offline />;
  const unknown = error instanceof ClientResponseError && (error.status === 404 || error.status === 400 || error.status === 410);
  return (
    <CandidateIntl catalog={catalog}>
      <Frame candidateKey={candidateId} brand={false} remember={false}>
        {unknown ? <InterviewInvalidLink replaced={error.status === 410} /> : <LoadProblem error={error} />}
      </Frame>
    </CandidateIntl>
  );
}

function LoadProblem({ error }: { error: unknown }) {
  const intl = useIntl();
  return (
    <Flex direction="column" align="center" gap="4" py="6">
      <Callout.Root color="red" role="alert">
        <Callout.Text>{intl.formatMessage({ id: candidateErrorKey(error) })}</Callout.Text>
      </Callout.Root>
      <Button variant="soft" onClick={() => window.location.reload()}>
        {intl.formatMessage({ id: 'errors.reload' })}
      </Button>
    </Flex>
  );
}
