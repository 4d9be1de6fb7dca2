import { Flex, Text } from '@radix-ui/themes';

/** 'Show archived …' above a list whose archived records (issue 16) are hidden by default. */
export function ArchivedToggle({ checked, onChange, label }: { checked: boolean; onChange: (checked: boolean) => void; label: string }) {
  return (
    <Text as="label" size="2">
      <Flex gap="2" align="center">
        {/* A native input: Radix's checkbox measures itself with ResizeObserver. */}
        <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
        {label}
      </Flex>
    </Text>
  );
}
