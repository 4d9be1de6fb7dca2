import { Link as ThemeLink, Text } from '@radix-ui/themes';
import { useIntl } from 'react-intl';

/** The company's privacy page, as consent and the data-request page name it; nothing when the company has none. */
export function InterviewPrivacyLink({ url, company }: { url: string; company: string }) {
  const intl = useIntl();
  if (!url) return null;
  return (
    <Text as="p">
      <ThemeLink href={url} target="_blank" rel="noopener noreferrer">
        {intl.formatMessage({ id: 'consent.privacy' }, { company })}
      </ThemeLink>
    </Text>
  );
}
