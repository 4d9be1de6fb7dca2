import { Flex, Text } from '@radix-ui/themes';

type LogoProps = {
  size?: 'md' | 'lg';
};

export function Logo({ size = 'md' }: LogoProps) {
  const iconSize = size === 'lg' ? 32 : 24;
  return (
    <Flex align="center" gap="2">
      <svg width={iconSize} height={iconSize} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" fill="var(--accent-9)" />
        <rect x="6" y="9" width="14" height="14" rx="3" fill="var(--accent-contrast)" />
        <path d="M21 14.5 26 11v10l-5-3.5z" fill="var(--accent-contrast)" />
      </svg>
      <Text size={size === 'lg' ? '6' : '4'} weight="bold" highContrast>
        Screenroom
      </Text>
    </Flex>
  );
}
