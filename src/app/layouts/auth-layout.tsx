import './auth-layout.css';

import { Box, Card, Flex, Link, Text } from '@radix-ui/themes';
import { Outlet } from 'react-router-dom';

import { Logo } from '@/components/logo';

/** The centred card around sign-in style pages: account entry, e-mail confirmations, invites. */
export function AuthLayout() {
  return (
    <Flex direction="column" align="center" justify="center" gap="5" px="4" py="8" minHeight="100vh">
      <Logo size="lg" />
      <Box width="100%" maxWidth="420px">
        <Card size="3">
          <Outlet />
        </Card>
      </Box>
      <Flex asChild direction="column" align="center" gap="1">
        <footer>
          <Text size="1" color="gray">
            © 2024 Screenroom
          </Text>
          <PoweredByPocketBase />
        </footer>
      </Flex>
    </Flex>
  );
}

function PoweredByPocketBase() {
  return (
    <Link href="https://pocketbase.io" target="_blank" rel="noreferrer" size="1" color="gray">
      <Flex as="span" align="center" gap="1">
        <svg width="12" height="12" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
          <rect x="1" y="1" width="14" height="14" rx="3" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path d="M5.5 12V4h3a2.25 2.25 0 0 1 0 4.5h-3" fill="none" stroke="currentColor" strokeWidth="1.5" />
        </svg>
        Powered by PocketBase
      </Flex>
    </Link>
  );
}
