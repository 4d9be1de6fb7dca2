import { Button, Flex, Heading, Link as RadixLink, Spinner, Table, Text, VisuallyHidden } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';

import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format-date';

import { questionQueries } from '../api/question-queries';
import { LoadError } from '@/components/load-error';

export function QuestionsListScreen() {
  const { companyId = '' } = useParams();
  const questions = useQuery(questionQueries.list(companyId));

  return (
    <Flex direction="column" gap="4">
      <Flex justify="between" align="center">
        <Heading as="h1">Questions</Heading>
        <Button asChild>
          <Link to={paths.companies.questions.new.href(companyId)}>Add Question</Link>
        </Button>
      </Flex>

      {questions.isPending ? (
        <Spinner size="3" />
      ) : questions.isError ? (
        <LoadError error={questions.error} />
      ) : questions.data.length === 0 ? (
        <Text color="gray">No questions yet. Add the first one.</Text>
      ) : (
        <Table.Root variant="surface">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Title</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Created</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {questions.data.map((question) => (
              <Table.Row key={question.id}>
                <Table.RowHeaderCell>{question.title}</Table.RowHeaderCell>
                <Table.Cell>{formatDate(question.created)}</Table.Cell>
                <Table.Cell justify="end">
                  <RadixLink asChild>
                    <Link
                      to={paths.companies.questions.edit.href(companyId, question.id)}
                      aria-label={`Edit ${question.title}`}
                    >
                      Edit
                    </Link>
                  </RadixLink>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Flex>
  );
}
