import { Button, Callout, Flex } from '@radix-ui/themes';
import { useIntl } from 'react-intl';

export function TimeUp({ onContinue }: { onContinue: () => void }) {
  const intl = useIntl();
  return (
    <Flex direction="column" gap="3" align="start">
      <Callout.Root color="amber" role="alert">
        <Callout.Text>{intl.formatMessage({ id: 'question.timeUp' })}</Callout.Text>
      </Callout.Root>
      <Button size="3" onClick={onContinue}>
        {intl.formatMessage({ id: 'question.continue' })}
      </Button>
    </Flex>
  );
}
