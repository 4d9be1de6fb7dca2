import { Box, Card, Flex, Heading, Text } from '@radix-ui/themes';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';

import { paths } from '@/config/paths';

const LINKS = [
  { to: paths.preferences.profile.href(), label: 'General' },
  { to: paths.preferences.password.href(), label: 'Change password' },
  { to: paths.preferences.email.href(), label: 'Change email' },
];

type PreferencesLayoutProps = {
  title: string;
  subtitle?: string;
  children: ReactNode;
};

/** The preferences' side links beside the screen's card. */
export function PreferencesLayout({ title, subtitle, children }: PreferencesLayoutProps) {
  return (
    <Flex gap="6" direction={{ initial: 'column', sm: 'row' }} align="start">
      <Box asChild width={{ initial: '100%', sm: '200px' }} flexShrink="0">
        <nav aria-label="Preferences">
          <Flex direction={{ initial: 'row', sm: 'column' }} gap="1" wrap="wrap">
            {LINKS.map((link) => (
              <NavLink
                key={link.to}
                to={link.to}
                style={({ isActive }) => ({
                  padding: 'var(--space-2) var(--space-3)',
                  borderRadius: 'var(--radius-2)',
                  textDecoration: 'none',
                  color: isActive ? 'var(--accent-11)' : 'var(--gray-12)',
                  background: isActive ? 'var(--accent-a3)' : 'transparent',
                })}
              >
                <Text size="2" weight="medium">
                  {link.label}
                </Text>
              </NavLink>
            ))}
          </Flex>
        </nav>
      </Box>
      <Box width="100%" maxWidth="560px">
        <Card size="3">
          <Flex direction="column" gap="4">
            <Box>
              <Heading as="h1" size="5">
                {title}
              </Heading>
              {subtitle ? (
                <Text as="p" size="2" color="gray" mt="1">
                  {subtitle}
                </Text>
              ) : null}
            </Box>
            {children}
          </Flex>
        </Card>
      </Box>
    </Flex>
  );
}
