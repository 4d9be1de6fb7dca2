import { Button, Card, Flex, Heading, Spinner } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router-dom';

import { paths } from '@/config/paths';
import { LoadError } from '@/components/load-error';
import { useGoBack } from '@/hooks/use-go-back';

import { jobQueries } from '../api/job-queries';
import { useUpdateJob } from '../api/update-job';
import { JobForm } from '../components/job-form';

export function EditJobScreen() {
  const { companyId = '', jobId = '' } = useParams();
  const navigate = useNavigate();
  const listHref = paths.companies.jobs.list.href(companyId);
  const goBack = useGoBack(listHref);
  const job = useQuery(jobQueries.detail(jobId));
  const updateJob = useUpdateJob();

  return (
    <Flex direction="column" gap="4" maxWidth="720px">
      <Heading as="h1">Edit job</Heading>
      {job.isPending ? (
        <Spinner size="3" />
      ) : job.isError ? (
        <LoadError error={job.error} />
      ) : (
        <Card size="3">
          <JobForm
            key={job.data.updated}
            companyId={companyId}
            defaultValues={{
              title: job.data.title,
              description: job.data.description,
              location: job.data.location,
              questions: job.data.questions,
            }}
            knownQuestions={job.data.expand?.questions}
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
      )}
    </Flex>
  );
}
