import { Button, Callout, Flex } from '@radix-ui/themes';

export function TimeUp({ onContinue }: { onContinue: () => void }) {
  return (
    <Flex direction="column" gap="3" align="start">
      <Callout.Root color="amber" role="alert">
        <Callout.Text>Time is up</Callout.Text>
      </Callout.Root>
      <Button size="3" onClick={onContinue}>
        Continue
      </Button>
    </Flex>
  );
}
