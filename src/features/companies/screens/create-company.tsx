import { Box, Card, Heading } from '@radix-ui/themes';
import { useNavigate } from 'react-router-dom';

import { paths } from '@/config/paths';

import { useCreateCompany } from '../api/create-company';
import { CompanyForm } from '../components/company-form';

export function CreateCompanyScreen() {
  const navigate = useNavigate();
  const createCompany = useCreateCompany({
    onSuccess: (company) => void navigate(paths.companies.detail.href(company.id)),
  });
  return (
    <Box p="4" maxWidth="640px" mx="auto">
      <Heading as="h1" size="6" mb="4">
        Create company
      </Heading>
      <Card size="3">
        <CompanyForm submitLabel="Create Company" onSubmit={(values) => createCompany.mutateAsync(values)} />
      </Card>
    </Box>
  );
}
