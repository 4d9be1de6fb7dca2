/**
 * Every route of the app, once: `path` is the pattern the route table matches, `href` builds a link to it.
 * Nested routes repeat their parent's prefix so each pattern reads in full here and in the route table.
 */
const segment = encodeURIComponent;

function withSearch(pathname: string, params: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, value);
  }
  const query = search.toString();
  return query ? `${pathname}?${query}` : pathname;
}

export const paths = {
  home: {
    path: '/',
    href: () => '/',
  },

  auth: {
    signIn: {
      path: '/auth/sign-in',
      href: () => '/auth/sign-in',
    },
    signUp: {
      path: '/auth/sign-up',
      href: (params?: { invite?: string; email?: string }) => withSearch('/auth/sign-up', params),
    },
    resetPassword: {
      path: '/auth/reset-password',
      href: () => '/auth/reset-password',
    },
    confirmVerification: {
      path: '/auth/confirm-verification/:token',
      href: (token: string) => `/auth/confirm-verification/${segment(token)}`,
    },
    confirmPasswordReset: {
      path: '/auth/confirm-password-reset/:token',
      href: (token: string) => `/auth/confirm-password-reset/${segment(token)}`,
    },
    confirmEmailChange: {
      path: '/auth/confirm-email-change/:token',
      href: (token: string) => `/auth/confirm-email-change/${segment(token)}`,
    },
  },

  /** Old link forms, kept working by redirects to their /auth counterparts; never link to them. */
  legacy: {
    signIn: { path: '/sign-in' },
    signUp: { path: '/sign-up' },
    resetPassword: { path: '/reset-password' },
  },

  invites: {
    accept: {
      path: '/invites/:inviteId/:email',
      href: (inviteId: string, email: string) => `/invites/${segment(inviteId)}/${segment(email)}`,
    },
  },

  candidates: {
    start: {
      path: '/candidates/:candidateId',
      href: (candidateId: string) => `/candidates/${segment(candidateId)}`,
    },
    /** The device and connection check before the first video question (issue 17). */
    check: {
      path: '/candidates/:candidateId/check',
      href: (candidateId: string) => `/candidates/${segment(candidateId)}/check`,
    },
    /** A practice question: recorded and played back on the device only, never sent (issue 17). */
    practice: {
      path: '/candidates/:candidateId/practice',
      href: (candidateId: string) => `/candidates/${segment(candidateId)}/practice`,
    },
    question: {
      path: '/candidates/:candidateId/questions/:questionId',
      href: (candidateId: string, questionId: string) =>
        `/candidates/${segment(candidateId)}/questions/${segment(questionId)}`,
    },
    finish: {
      path: '/candidates/:candidateId/finish',
      href: (candidateId: string) => `/candidates/${segment(candidateId)}/finish`,
    },
    /** What is kept of the candidate's application, and their withdrawal: every candidate e-mail links here. */
    data: {
      path: '/candidates/:candidateId/data',
      href: (candidateId: string) => `/candidates/${segment(candidateId)}/data`,
    },
  },

  /** A manager's read-only link to one candidate's review (issue 15): public, for whoever holds the token. */
  shared: {
    review: {
      path: '/shared/:token',
      href: (token: string) => `/shared/${segment(token)}`,
    },
  },

  preferences: {
    root: {
      path: '/preferences',
      href: () => '/preferences',
    },
    profile: {
      path: '/preferences/profile',
      href: () => '/preferences/profile',
    },
    password: {
      path: '/preferences/password',
      href: () => '/preferences/password',
    },
    email: {
      path: '/preferences/email',
      href: () => '/preferences/email',
    },
  },

  companies: {
    new: {
      path: '/companies/new',
      href: () => '/companies/new',
    },
    detail: {
      path: '/companies/:companyId',
      href: (companyId: string) => `/companies/${segment(companyId)}`,
    },
    edit: {
      path: '/companies/:companyId/edit',
      href: (companyId: string) => `/companies/${segment(companyId)}/edit`,
    },
    /** Search across the company's transcripts and text answers (issue 18): `q` is the query. */
    search: {
      path: '/companies/:companyId/search',
      href: (companyId: string, q?: string) =>
        `/companies/${segment(companyId)}/search${q ? `?${new URLSearchParams({ q }).toString()}` : ''}`,
    },
    team: {
      path: '/companies/:companyId/team',
      href: (companyId: string) => `/companies/${segment(companyId)}/team`,
    },
    /** Issue 18: the company's webhook endpoints and their deliveries. */
    webhooks: {
      path: '/companies/:companyId/webhooks',
      href: (companyId: string) => `/companies/${segment(companyId)}/webhooks`,
    },
    /** Issue 19: who exported or erased which candidate, read-only. */
    auditLog: {
      path: '/companies/:companyId/audit-log',
      href: (companyId: string) => `/companies/${segment(companyId)}/audit-log`,
    },
    /** The hiring funnel over all the company's jobs. */
    analytics: {
      path: '/companies/:companyId/analytics',
      href: (companyId: string) => `/companies/${segment(companyId)}/analytics`,
    },
    /** The company's decision messages: its own text per kind and language, else the product's default. */
    decisionMessages: {
      path: '/companies/:companyId/decision-messages',
      href: (companyId: string) => `/companies/${segment(companyId)}/decision-messages`,
    },
    /** Every live share link of the company, whoever made it; the owner revokes any. */
    shareLinks: {
      path: '/companies/:companyId/share-links',
      href: (companyId: string) => `/companies/${segment(companyId)}/share-links`,
    },

    questions: {
      list: {
        path: '/companies/:companyId/questions',
        href: (companyId: string) => `/companies/${segment(companyId)}/questions`,
      },
      new: {
        path: '/companies/:companyId/questions/new',
        href: (companyId: string) => `/companies/${segment(companyId)}/questions/new`,
      },
      detail: {
        path: '/companies/:companyId/questions/:questionId',
        href: (companyId: string, questionId: string) =>
          `/companies/${segment(companyId)}/questions/${segment(questionId)}`,
      },
      edit: {
        path: '/companies/:companyId/questions/:questionId/edit',
        href: (companyId: string, questionId: string) =>
          `/companies/${segment(companyId)}/questions/${segment(questionId)}/edit`,
      },
    },

    jobs: {
      list: {
        path: '/companies/:companyId/jobs',
        href: (companyId: string) => `/companies/${segment(companyId)}/jobs`,
      },
      new: {
        path: '/companies/:companyId/jobs/new',
        href: (companyId: string) => `/companies/${segment(companyId)}/jobs/new`,
      },
      detail: {
        path: '/companies/:companyId/jobs/:jobId',
        href: (companyId: string, jobId: string) => `/companies/${segment(companyId)}/jobs/${segment(jobId)}`,
      },
      edit: {
        path: '/companies/:companyId/jobs/:jobId/edit',
        href: (companyId: string, jobId: string) =>
          `/companies/${segment(companyId)}/jobs/${segment(jobId)}/edit`,
      },
      /**
       * Two to four candidates of the job side by side, question by question: `candidates` is their ids, comma
       * separated, in the order of the columns.
       */
      compare: {
        path: '/companies/:companyId/jobs/:jobId/compare',
        href: (companyId: string, jobId: string, candidateIds: readonly string[]) =>
          // the commas stay readable (each id is encoded, the list's separator is not)
          `/companies/${segment(companyId)}/jobs/${segment(jobId)}/compare?candidates=${candidateIds.map(segment).join(',')}`,
      },
      /** The job's hiring funnel. */
      analytics: {
        path: '/companies/:companyId/jobs/:jobId/analytics',
        href: (companyId: string, jobId: string) =>
          `/companies/${segment(companyId)}/jobs/${segment(jobId)}/analytics`,
      },
      candidate: {
        path: '/companies/:companyId/jobs/:jobId/candidates/:candidateId',
        href: (companyId: string, jobId: string, candidateId: string) =>
          `/companies/${segment(companyId)}/jobs/${segment(jobId)}/candidates/${segment(candidateId)}`,
      },
    },
  },
} as const;
