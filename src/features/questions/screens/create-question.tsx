import { Button, Card, Flex, Heading } from '@radix-ui/themes';
import { useNavigate, useParams } from 'react-router-dom';

import { paths } from '@/config/paths';

import { useCreateQuestion } from '../api/create-question';
import { QuestionForm } from '../components/question-form';
import { useGoBack } from '@/hooks/use-go-back';

export function CreateQuestionScreen() {
  const { companyId = '' } = useParams();
  const navigate = useNavigate();
  const listHref = paths.companies.questions.list.href(companyId);
  const goBack = useGoBack(listHref);
  const createQuestion = useCreateQuestion();

  return (
    <Flex direction="column" gap="4" maxWidth="640px">
      <Heading as="h1">New question</Heading>
      <Card size="3">
        <QuestionForm
          submitLabel="Create Question"
          onSubmit={async (values) => {
            await createQuestion.mutateAsync({ companyId, values });
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
