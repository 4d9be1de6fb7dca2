import { useMutation } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';

/**
 * Mails the candidate's interview link again (issue 16): POST /api/screenroom/candidates/{id}/resend-invite, for the
 * managers of the job's company, within the address's e-mail budget (429 when spent); refused when the candidate has
 * answered, the invitation is withdrawn or its deadline has passed (server/internal/candidates).
 */
export function useResendInvitation(candidateId: string) {
  return useMutation({
    mutationKey: ['resend-invitation', candidateId],
    mutationFn: () =>
      pb.send<{ sentAt: string }>(`/api/screenroom/candidates/${encodeURIComponent(candidateId)}/resend-invite`, {
        method: 'POST',
      }),
  });
}
