import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import type { Locale } from '@/lib/locales';
import { pb } from '@/lib/pocketbase';
import type { DecisionTemplatesResponse } from '@/lib/pocketbase-types';

export type DecisionKind = 'advance' | 'reject';

export const DECISION_KINDS: readonly { value: DecisionKind; label: string }[] = [
  { value: 'advance', label: 'Advance' },
  { value: 'reject', label: 'Reject' },
];

/** A kind's text in one language as it is sent: the company's own (`custom`, `id` set) or the product's default. */
export type DecisionTemplate = {
  id: string;
  kind: DecisionKind;
  language: Locale;
  subject: string;
  body: string;
  custom: boolean;
  defaultSubject: string;
  defaultBody: string;
};

/** An e-mail as the server would send it: its subject and plain text, in its language and direction. */
export type DecisionMessagePreview = {
  kind: DecisionKind;
  language: Locale;
  dir: 'ltr' | 'rtl';
  to: string;
  subject: string;
  text: string;
  custom?: boolean;
};

const companyPath = (companyId: string) => `/api/screenroom/companies/${encodeURIComponent(companyId)}/decision-templates`;

/** Every kind in every language for a company (GET .../decision-templates, its managers only). */
export const decisionTemplateQueries = {
  all: () => ['decision-templates'] as const,
  lists: () => [...decisionTemplateQueries.all(), 'list'] as const,
  list: (companyId: string) =>
    queryOptions({
      queryKey: [...decisionTemplateQueries.lists(), companyId] as const,
      queryFn: async ({ signal }) => (await pb.send<{ templates: DecisionTemplate[] }>(companyPath(companyId), { signal })).templates,
    }),
};

export type TemplateText = { subject: string; body: string };

/** Saves the company's own text for a kind and language: updates its template, or creates the first one. */
export function useSaveDecisionTemplate(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ template, text }: { template: DecisionTemplate; text: TemplateText }) =>
      template.id
        ? pb.collection('decision_templates').update<DecisionTemplatesResponse>(template.id, text)
        : pb.collection('decision_templates').create<DecisionTemplatesResponse>({
            company: companyId,
            kind: template.kind,
            language: template.language,
            ...text,
          }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: decisionTemplateQueries.list(companyId).queryKey }),
  });
}

/** Deletes the company's own text, so the product's default in that language is sent again. */
export function useResetDecisionTemplate(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (templateId: string) => pb.collection('decision_templates').delete(templateId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: decisionTemplateQueries.list(companyId).queryKey }),
  });
}

/** The e-mail a text makes as written (saved or not), for a sample candidate; the server checks it as it would a save. */
export function usePreviewDecisionTemplate(companyId: string) {
  return useMutation({
    mutationFn: (values: { kind: DecisionKind; language: Locale } & TemplateText) =>
      pb.send<DecisionMessagePreview>(`${companyPath(companyId)}/preview`, { method: 'POST', body: values }),
  });
}
