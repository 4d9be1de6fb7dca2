import { Button, Card, Flex, Heading, Spinner } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router-dom';

import { paths } from '@/config/paths';

import { questionFormValues, questionQueries } from '../api/question-queries';
import { useUpdateQuestion } from '../api/update-question';
import { LoadError } from '@/components/load-error';
import { QuestionForm } from '../components/question-form';

export function EditQuestionScreen() {
  const { companyId = '', questionId = '' } = useParams();
  const navigate = useNavigate();
  const listHref = paths.companies.questions.list.href(companyId);
  const question = useQuery(questionQueries.detail(questionId));
  const updateQuestion = useUpdateQuestion();

  return (
    <Flex direction="column" gap="4" maxWidth="640px">
      <Heading as="h1">Edit question</Heading>
      {question.isPending ? (
        <Spinner size="3" />
      ) : question.isError ? (
        <LoadError error={question.error} />
      ) : (
        <Card size="3">
          <QuestionForm
            // A fresh form per stored version, so it never starts from stale values.
            key={question.data.updated}
            defaultValues={questionFormValues(question.data)}
            submitLabel="Update Question"
            onSubmit={async (values) => {
              await updateQuestion.mutateAsync({ question: question.data, values });
              await navigate(listHref);
            }}
            cancel={
              <Button asChild variant="soft" color="gray">
                <Link to={listHref}>Cancel</Link>
              </Button>
            }
          />
        </Card>
      )}
    </Flex>
  );
}
