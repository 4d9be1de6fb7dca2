import { Text } from '@radix-ui/themes';

import { AUTONYMS } from '@/lib/locales';

import type { DecisionMessagePreview } from '../api/decision-templates';

/**
 * An e-mail as the server would send it: to whom, in which language, its subject and its text as the candidate
 * reads it, in the language's direction. Phrasing content only (spans), so it also sits in a dialog's description.
 */
export function MessagePreview({ preview, note }: { preview: DecisionMessagePreview; note?: string }) {
  return (
    <Text as="span" size="2" style={{ display: 'flex', flexDirection: 'column', gap: 'var(--space-2)' }} data-testid="message-preview">
      {note ? (
        <Text as="span" color="gray">
          {note}
        </Text>
      ) : null}
      {preview.to ? (
        <Text as="span">
          <Text weight="bold">To:</Text> {preview.to}
        </Text>
      ) : null}
      <Text as="span">
        <Text weight="bold">Language:</Text> {AUTONYMS[preview.language]}
        {preview.custom === false ? ' (Screenroom’s default text)' : preview.custom ? ' (your company’s text)' : ''}
      </Text>
      <Text as="span">
        <Text weight="bold">Subject:</Text>{' '}
        <Text as="span" lang={preview.language} dir={preview.dir} data-testid="preview-subject">
          {preview.subject}
        </Text>
      </Text>
      <Text
        as="span"
        lang={preview.language}
        dir={preview.dir}
        data-testid="preview-text"
        style={{
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          border: '1px solid var(--gray-a6)',
          borderRadius: 'var(--radius-2)',
          padding: 'var(--space-3)',
          maxHeight: '50vh',
          overflowY: 'auto',
        }}
      >
        {preview.text}
      </Text>
    </Text>
  );
}
