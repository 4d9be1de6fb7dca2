import { Button, Card, Flex, Heading } from '@radix-ui/themes';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, type LoaderFunctionArgs } from 'react-router-dom';

import { paths } from '@/config/paths';
import { queryClient } from '@/lib/query-client';

import { questionFormValues, questionQueries } from '../api/question-queries';
import { useUpdateQuestion } from '../api/update-question';
import { QuestionForm } from '../components/question-form';

/** The question before the form renders, so the form starts from its real values (a load error is the route's). */
export async function editQuestionLoader({ params }: LoaderFunctionArgs) {
  await queryClient.ensureQueryData(questionQueries.detail(params.questionId ?? ''));
  return null;
}

export function EditQuestionScreen() {
  const { companyId = '', questionId = '' } = useParams();
  const navigate = useNavigate();
  const listHref = paths.companies.questions.list.href(companyId);
  const { data: question } = useSuspenseQuery(questionQueries.detail(questionId));
  const updateQuestion = useUpdateQuestion();

  return (
    <Flex direction="column" gap="4" maxWidth="640px">
      <Heading as="h1">Edit question</Heading>
      <Card size="3">
        <QuestionForm
          // A fresh form per stored version, so it never starts from stale values.
          key={question.updated}
          defaultValues={questionFormValues(question)}
          submitLabel="Update Question"
          onSubmit={async (values) => {
            await updateQuestion.mutateAsync({ question, values });
            await navigate(listHref);
          }}
          cancel={
            <Button asChild variant="soft" color="gray">
              <Link to={listHref}>Cancel</Link>
            </Button>
          }
        />
      </Card>
    </Flex>
  );
}
