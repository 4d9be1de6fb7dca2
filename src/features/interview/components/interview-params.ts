import { useParams } from 'react-router-dom';

/** A route parameter the matched interview route guarantees. */
export function useInterviewParam(name: 'candidateId' | 'questionId'): string {
  const value = useParams()[name];
  if (value === undefined) throw new Error(`Route parameter "${name}" is missing.`);
  return value;
}
