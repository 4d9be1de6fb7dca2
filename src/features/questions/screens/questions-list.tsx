import { Badge, Link as RadixLink } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';

import { ArchivedToggle } from '@/components/archived-toggle';
import { RecordListScreen, type RecordListColumn } from '@/components/record-list';
import { paths } from '@/config/paths';
import { jobQueries } from '@/features/jobs/api/job-queries';
import { formatSeconds } from '@/lib/format-seconds';

import { jobsUsingEach, questionKind, questionQueries, type QuestionOverview } from '../api/question-queries';
import { QuestionRemoval } from '../components/question-removal';

/** The list's columns; `usedIn` is how many jobs use each question, undefined until the jobs list has come. */
const columns = (usedIn: Map<string, number> | undefined): RecordListColumn<QuestionOverview>[] => [
  {
    header: 'Kind',
    cell: (question) => {
      const kind = questionKind(question);
      return kind?.type === 'video' ? 'Video' : kind?.type === 'text' ? 'Text' : '';
    },
  },
  { header: 'Time limit', cell: (question) => formatSeconds(question.timeout) },
  {
    header: 'Takes',
    cell: (question) => {
      const kind = questionKind(question);
      return kind?.type === 'video' ? String(kind.record.takes) : '—';
    },
  },
  {
    header: 'Preparation',
    cell: (question) => {
      const kind = questionKind(question);
      return kind?.type === 'video' ? formatSeconds(kind.record.preparation) : '—';
    },
  },
  {
    header: 'Used in',
    cell: (question) => {
      if (!usedIn) return '';
      const jobs = usedIn.get(question.id) ?? 0;
      return jobs === 0 ? 'No job' : jobs === 1 ? '1 job' : `${jobs} jobs`;
    },
  },
];

export function QuestionsListScreen() {
  const { companyId = '' } = useParams();
  // archived questions (issue 16) are put away: listed only when asked for
  const [showArchived, setShowArchived] = useState(false);
  const query = useQuery({
    ...questionQueries.overview(companyId),
    select: (questions) => (showArchived ? questions : questions.filter((question) => !question.archived)),
  });
  // the company home's jobs list (often cached already): which jobs use each question
  const jobs = useQuery(jobQueries.list(companyId));
  const cols = useMemo(() => columns(jobs.data ? jobsUsingEach(jobs.data) : undefined), [jobs.data]);
  return (
    <RecordListScreen
      title="Questions"
      addLabel="Add Question"
      addHref={paths.companies.questions.new.href(companyId)}
      emptyText="No questions yet."
      emptyLabel="Add your first question"
      query={query}
      columns={cols}
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
