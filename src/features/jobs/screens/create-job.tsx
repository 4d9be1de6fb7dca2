import { Button, Card, Flex, Heading } from '@radix-ui/themes';
import { Link, useNavigate, useParams } from 'react-router-dom';

import { paths } from '@/config/paths';

import { useCreateJob } from '../api/create-job';
import { JobForm } from '../components/job-form';
import { newJobDefaults } from '../schemas';

export function CreateJobScreen() {
  const { companyId = '' } = useParams();
  const navigate = useNavigate();
  const createJob = useCreateJob();

  return (
    <Flex direction="column" gap="4" maxWidth="720px">
      <Heading as="h1">Create job</Heading>
      <Card size="3">
        <JobForm
          companyId={companyId}
          defaultValues={newJobDefaults}
          submitLabel="Create Job"
          onSubmit={async (values) => {
            const job = await createJob.mutateAsync({ companyId, values });
            await navigate(paths.companies.jobs.detail.href(companyId, job.id));
          }}
          cancel={
            <Button asChild variant="soft" color="gray">
              <Link to={paths.companies.jobs.list.href(companyId)}>Cancel</Link>
            </Button>
          }
        />
      </Card>
    </Flex>
  );
}
