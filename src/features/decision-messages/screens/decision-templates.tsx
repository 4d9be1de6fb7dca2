import { useQuery } from '@tanstack/react-query';
import { Code, Flex, SegmentedControl, Text } from '@radix-ui/themes';
import { useCallback, useId, useRef, useState } from 'react';
import { useParams } from 'react-router-dom';

import '@/components/native-select.css';
import { QueryState } from '@/components/query-state';
import { UnsavedChangesGuard } from '@/components/unsaved-changes';
import { CompanySettingsLayout } from '@/features/companies/components/company-settings-layout';
import { AUTONYMS, LOCALES, type Locale } from '@/lib/locales';

import { DECISION_KINDS, decisionTemplateQueries, type DecisionKind, type DecisionTemplate, type TemplateText } from '../api/decision-templates';
import { DecisionTemplateForm } from '../components/decision-template-form';

/**
 * Company settings, 'Decision messages': the company's words for the e-mail a manager sends a candidate they
 * advanced or rejected, one text per kind and language. Where the company wrote none in a language, the product's
 * default text in that language is sent. Manager screens stay English; the texts are in the candidate's language.
 */
export function DecisionTemplatesScreen() {
  const { companyId = '' } = useParams();
  return (
    <CompanySettingsLayout companyId={companyId} title="Decision messages">
      <Flex direction="column" gap="4">
        <Text as="p" size="2" color="gray">
          The e-mail a candidate receives when a manager sends it from their review, after advancing or rejecting them. Nothing is
          sent automatically. Each candidate gets it in their own language (the one they chose for their interview, else the
          job&apos;s), with your text for that language or, where you wrote none, Screenroom&apos;s default text in it.
        </Text>
        <Text as="p" size="2" color="gray">
          Placeholders: <Code>{'{name}'}</Code> the candidate&apos;s name (their e-mail address when no name is known),{' '}
          <Code>{'{job}'}</Code> the job&apos;s title, <Code>{'{company}'}</Code> the company&apos;s name. The e-mail starts with a
          greeting and ends with the link to the candidate&apos;s data and your company&apos;s name.
        </Text>
        <TemplatesEditor companyId={companyId} />
      </Flex>
    </CompanySettingsLayout>
  );
}

const keyOf = (kind: DecisionKind, language: Locale) => `${kind}:${language}`;

function TemplatesEditor({ companyId }: { companyId: string }) {
  const templates = useQuery(decisionTemplateQueries.list(companyId));
  const [kind, setKind] = useState<DecisionKind>('advance');
  const [language, setLanguage] = useState<Locale>('en');
  // what was typed and not saved, per kind and language: switching to another text and back keeps it
  const drafts = useRef(new Map<string, TemplateText>());
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const onDraft = useCallback((key: string, text: TemplateText | null) => {
    if (text) drafts.current.set(key, text);
    else drafts.current.delete(key);
    setEdited((before) => {
      if (before.has(key) === Boolean(text)) return before;
      const after = new Set(before);
      if (text) after.add(key);
      else after.delete(key);
      return after;
    });
  }, []);
  const kindLabelId = useId();
  const languageId = useId();

  return (
    <QueryState query={templates}>
      {(list) => {
        const chosen = list.find((t) => t.kind === kind && t.language === language);
        const of = (k: DecisionKind, l: Locale) => list.find((t) => t.kind === k && t.language === l);
        return (
          <Flex direction="column" gap="4">
            <Flex gap="5" wrap="wrap" align="end">
              <Flex direction="column" gap="1">
                <Text as="div" size="2" weight="medium" id={kindLabelId}>
                  Message
                </Text>
                <SegmentedControl.Root aria-labelledby={kindLabelId} value={kind} onValueChange={(value) => setKind(value as DecisionKind)}>
                  {DECISION_KINDS.map((option) => (
                    <SegmentedControl.Item key={option.value} value={option.value}>
                      {option.label}
                    </SegmentedControl.Item>
                  ))}
                </SegmentedControl.Root>
              </Flex>
              <Flex direction="column" gap="1">
                <Text as="label" htmlFor={languageId} size="2" weight="medium">
                  Language
                </Text>
                <select
                  id={languageId}
                  className="native-select"
                  style={{ minWidth: '16rem' }}
                  value={language}
                  onChange={(event) => setLanguage(event.target.value as Locale)}
                >
                  {LOCALES.map((locale) => (
                    <option key={locale} value={locale}>
                      {languageOption(locale, of(kind, locale), edited.has(keyOf(kind, locale)))}
                    </option>
                  ))}
                </select>
              </Flex>
            </Flex>
            {chosen ? (
              <DecisionTemplateForm
                // a text of its own per kind and language, started from its draft when there is one
                key={`${keyOf(kind, language)}:${chosen.id}:${chosen.subject}:${chosen.body}`}
                companyId={companyId}
                template={chosen}
                draft={drafts.current.get(keyOf(kind, language)) ?? null}
                onDraft={(text) => onDraft(keyOf(kind, language), text)}
              />
            ) : null}
            <UnsavedChangesGuard when={edited.size > 0} />
          </Flex>
        );
      }}
    </QueryState>
  );
}

/** A language in the list, by its own name, and whether the company wrote its own text (or has unsaved changes). */
function languageOption(locale: Locale, template: DecisionTemplate | undefined, edited: boolean) {
  const state = edited ? 'unsaved changes' : template?.custom ? 'your text' : 'default text';
  return `${AUTONYMS[locale]} (${state})`;
}
