import { Box, Container, Flex, Text } from '@radix-ui/themes';
import { Link, Outlet } from 'react-router-dom';

import { Logo } from '@/components/logo';
import { paths } from '@/config/paths';
import { useSignedInUser } from '@/lib/session';

/** The signed-in frame: top bar with the logo and the user's menu, then the screen. */
export function ManagerShell() {
  const user = useSignedInUser();

  return (
    <Flex direction="column" minHeight="100vh">
      <Box asChild px="4" py="3" style={{ borderBottom: '1px solid var(--gray-a5)' }}>
        <header>
          <Flex align="center" justify="between" gap="4">
            <Link to={paths.home.href()} style={{ color: 'inherit', textDecoration: 'none' }}>
              <Logo />
            </Link>
            {/* The user menu (Preferences, Manage company, Logout) replaces this name in the shell issue. */}
            <Text size="2" weight="medium">
              {user.firstName} {user.lastName}
            </Text>
          </Flex>
        </header>
      </Box>
      <Container size="4" px="4" py="5">
        <main>
          <Outlet />
        </main>
      </Container>
    </Flex>
  );
}
