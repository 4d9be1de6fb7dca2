import { Flex, Separator, Text } from '@radix-ui/themes';

export function OrDivider() {
  return (
    <Flex align="center" gap="3" my="1">
      <Separator size="4" style={{ flex: 1 }} />
      <Text size="1" color="gray">
        or
      </Text>
      <Separator size="4" style={{ flex: 1 }} />
    </Flex>
  );
}
