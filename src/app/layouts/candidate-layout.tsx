import { Container, Flex } from '@radix-ui/themes';
import { Outlet } from 'react-router-dom';

import { Logo } from '@/components/logo';

/** The candidate's interview frame; kept apart from the manager shell so candidates never load it. */
export function CandidateLayout() {
  return (
    <Container size="2" px="4" py="6">
      <Flex justify="center" mb="6">
        <Logo />
      </Flex>
      <main>
        <Outlet />
      </main>
    </Container>
  );
}
