import { Badge, Link as RadixLink } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';

import { ArchivedToggle } from '@/components/archived-toggle';
import { RecordListScreen } from '@/components/record-list';
import { paths } from '@/config/paths';

import { questionQueries } from '../api/question-queries';
import { QuestionRemoval } from '../components/question-removal';

export function QuestionsListScreen() {
  const { companyId = '' } = useParams();
  // archived questions (issue 16) are put away: listed only when asked for
  const [showArchived, setShowArchived] = useState(false);
  const query = useQuery({
    ...questionQueries.list(companyId),
    select: (questions) => (showArchived ? questions : questions.filter((question) => !question.archived)),
  });
  return (
    <RecordListScreen
      title="Questions"
      addLabel="Add Question"
      addHref={paths.companies.questions.new.href(companyId)}
      emptyText="No questions yet. Add the first one."
      query={query}
      toolbar={<ArchivedToggle checked={showArchived} onChange={setShowArchived} label="Show archived questions" />}
      actions={(question) => (
        <>
          {question.archived && <Badge color="gray">Archived</Badge>}
          <RadixLink asChild>
            <Link to={paths.companies.questions.edit.href(companyId, question.id)} aria-label={`Edit ${question.title}`}>
              Edit
            </Link>
          </RadixLink>
          <QuestionRemoval question={question} />
        </>
      )}
    />
  );
}
