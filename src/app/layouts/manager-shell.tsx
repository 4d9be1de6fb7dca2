import './manager-shell.css';

import { Box, Container, Flex } from '@radix-ui/themes';
import { Suspense } from 'react';
import { Link, Outlet } from 'react-router-dom';

import { Logo } from '@/components/logo';
import { PageSpinner } from '@/components/page-spinner';
import { paths } from '@/config/paths';
import { CompanySwitcher } from '@/features/auth/components/company-switcher';
import { UserMenu } from '@/features/auth/components/user-menu';

/** The signed-in frame: top bar with the logo and the user's menu, the company switcher, then the screen. */
export function ManagerShell() {
  return (
    <Flex direction="column" minHeight="100vh">
      <Box asChild px="4" py="3" style={{ borderBottom: '1px solid var(--gray-a5)' }}>
        <header>
          <Flex align="center" justify="between" gap="4">
            <Link to={paths.home.href()} style={{ color: 'inherit', textDecoration: 'none' }}>
              <Logo />
            </Link>
            <UserMenu />
          </Flex>
        </header>
      </Box>
      <CompanySwitcher />
      <Container size="4" px="4" py="5">
        <main>
          {/* a screen reading with useSuspenseQuery (the review, a job) waits here, under the shell */}
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </main>
      </Container>
    </Flex>
  );
}
