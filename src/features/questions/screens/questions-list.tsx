import { Link as RadixLink } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';

import { RecordListScreen } from '@/components/record-list';
import { paths } from '@/config/paths';

import { questionQueries } from '../api/question-queries';

export function QuestionsListScreen() {
  const { companyId = '' } = useParams();
  return (
    <RecordListScreen
      title="Questions"
      addLabel="Add Question"
      addHref={paths.companies.questions.new.href(companyId)}
      emptyText="No questions yet. Add the first one."
      query={useQuery(questionQueries.list(companyId))}
      actions={(question) => (
        <RadixLink asChild>
          <Link to={paths.companies.questions.edit.href(companyId, question.id)} aria-label={`Edit ${question.title}`}>
            Edit
          </Link>
        </RadixLink>
      )}
    />
  );
}
