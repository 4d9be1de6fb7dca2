import { Button, Card, Flex, Heading } from '@radix-ui/themes';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate, useParams, type LoaderFunctionArgs } from 'react-router-dom';

import { paths } from '@/config/paths';
import { useGoBack } from '@/hooks/use-go-back';
import { pickLocale } from '@/lib/locales';
import { queryClient } from '@/lib/query-client';

import { jobQueries } from '../api/job-queries';
import { useUpdateJob } from '../api/update-job';
import { JobForm } from '../components/job-form';

/** The job before the form renders, so the form starts from its real values (a load error is the route's). */
export async function editJobLoader({ params }: LoaderFunctionArgs) {
  await queryClient.ensureQueryData(jobQueries.detail(params.jobId ?? ''));
  return null;
}

export function EditJobScreen() {
  const { companyId = '', jobId = '' } = useParams();
  const navigate = useNavigate();
  const listHref = paths.companies.jobs.list.href(companyId);
  const goBack = useGoBack(listHref);
  const { data: job } = useSuspenseQuery(jobQueries.detail(jobId));
  const updateJob = useUpdateJob();

  return (
    <Flex direction="column" gap="4" maxWidth="720px">
      <Heading as="h1">Edit job</Heading>
      <Card size="3">
        <JobForm
          key={job.updated}
          companyId={companyId}
          defaultValues={{
            title: job.title,
            description: job.description,
            location: job.location,
            welcomeMessage: job.welcomeMessage ?? '',
            // 0 is 'no deadline': an empty field says so better than a 0
            responseDays: job.responseDays ? job.responseDays : '',
            // a job made before languages existed has none: it is English
            language: pickLocale(job.language),
            questions: job.questions,
          }}
          knownQuestions={job.expand?.questions}
          submitLabel="Update Job"
          onSubmit={async (values) => {
            await updateJob.mutateAsync({ jobId, values });
            await navigate(listHref);
          }}
          cancel={
            <Button type="button" variant="soft" color="gray" onClick={goBack}>
              Cancel
            </Button>
          }
        />
      </Card>
    </Flex>
  );
}
