import { redirect, type LoaderFunctionArgs, type Params, type RouteObject } from 'react-router-dom';

import { PageSpinner } from '@/components/page-spinner';
import { paths } from '@/config/paths';

import { HomeRedirect, homeLoader, SignedInOnly, SignedOutOnly } from './guards';
import { NotFound } from './not-found';
import { prefetchJobsList, prefetchShell } from './prefetch';
import { CandidateReviewError, JobRouteError, QuestionRouteError, RouteError } from './route-error';

/**
 * Every route of the app (spec §2 and decisions.md ## Routes), in one table.
 *
 * Layouts and screens are `lazy`, one chunk each, so a candidate opening an interview link downloads only the
 * candidate layout and screen, never the manager shell or manager screens. The guards, the redirects and the 404
 * stay in the entry: they are tiny and nearly every visit needs one of them.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    HydrateFallback: PageSpinner,
    ErrorBoundary: RouteError,
    children: [
      // Legacy link forms: redirect to /auth, keeping ?invite=...&email=...
      { path: paths.legacy.signIn.path, ...redirectTo(keepingSearch(paths.auth.signIn.path)) },
      { path: paths.legacy.signUp.path, ...redirectTo(keepingSearch(paths.auth.signUp.path)) },
      { path: paths.legacy.resetPassword.path, ...redirectTo(keepingSearch(paths.auth.resetPassword.path)) },

      // The auth card: account entry (signed-out only), plus the public links of account e-mails and manager
      // invites, which work signed in or out.
      {
        lazy: () => import('./layouts/auth-layout').then((m) => ({ Component: m.AuthLayout })),
        children: [
          {
            Component: SignedOutOnly,
            children: [
              {
                path: paths.auth.signIn.path,
                lazy: () => import('@/features/auth/screens/sign-in').then((m) => ({ Component: m.SignInScreen })),
              },
              {
                path: paths.auth.signUp.path,
                lazy: () => import('@/features/auth/screens/sign-up').then((m) => ({ Component: m.SignUpScreen })),
              },
              {
                path: paths.auth.resetPassword.path,
                lazy: () =>
                  import('@/features/auth/screens/reset-password').then((m) => ({
                    Component: m.ResetPasswordScreen,
                  })),
              },
            ],
          },
          {
            path: paths.auth.confirmVerification.path,
            lazy: () =>
              import('@/features/auth/screens/confirm-verification').then((m) => ({
                Component: m.ConfirmVerificationScreen,
              })),
          },
          {
            path: paths.auth.confirmPasswordReset.path,
            lazy: () =>
              import('@/features/auth/screens/confirm-password-reset').then((m) => ({
                Component: m.ConfirmPasswordResetScreen,
              })),
          },
          {
            path: paths.auth.confirmEmailChange.path,
            lazy: () =>
              import('@/features/auth/screens/confirm-email-change').then((m) => ({
                Component: m.ConfirmEmailChangeScreen,
              })),
          },
          {
            path: paths.invites.accept.path,
            lazy: () =>
              import('@/features/invites/screens/accept-invite').then((m) => ({ Component: m.AcceptInviteScreen })),
          },
        ],
      },

      // Public: the candidate's interview.
      {
        path: paths.candidates.start.path,
        lazy: () =>
          import('./layouts/candidate-layout').then((m) => ({
            Component: m.CandidateLayout,
            loader: m.candidateLayoutLoader,
            ErrorBoundary: m.CandidateLayoutError,
          })),
        children: [
          {
            index: true,
            lazy: () =>
              import('@/features/interview/screens/interview-start').then((m) => ({
                Component: m.InterviewStartScreen,
              })),
          },
          {
            path: paths.candidates.check.path,
            lazy: () =>
              import('@/features/interview/screens/interview-device-check').then((m) => ({
                Component: m.InterviewDeviceCheckScreen,
              })),
          },
          {
            path: paths.candidates.practice.path,
            lazy: () =>
              import('@/features/interview/screens/interview-practice').then((m) => ({
                Component: m.InterviewPracticeScreen,
              })),
          },
          {
            path: paths.candidates.question.path,
            lazy: () =>
              import('@/features/interview/screens/interview-question').then((m) => ({
                Component: m.InterviewQuestionScreen,
              })),
          },
          {
            path: paths.candidates.finish.path,
            lazy: () =>
              import('@/features/interview/screens/interview-finish').then((m) => ({
                Component: m.InterviewFinishScreen,
              })),
          },
          {
            path: paths.candidates.data.path,
            lazy: () =>
              import('@/features/interview/screens/interview-data').then((m) => ({
                Component: m.InterviewDataScreen,
              })),
          },
        ],
      },

      // Public: a manager's share link to one candidate's review (issue 15), for whoever holds it. No shell, no
      // session: its own frame, chunk and error page.
      {
        path: paths.shared.review.path,
        lazy: () =>
          import('@/features/share-links/screens/shared-review').then((m) => ({
            Component: m.SharedReviewScreen,
            loader: m.sharedReviewLoader,
            ErrorBoundary: m.SharedReviewError,
          })),
      },

      {
        Component: SignedInOnly,
        children: [
          { path: paths.home.path, loader: homeLoader, Component: HomeRedirect },
          {
            loader: prefetchShell,
            lazy: () => import('./layouts/manager-shell').then((m) => ({ Component: m.ManagerShell })),
            children: [
              {
                path: paths.preferences.root.path,
                children: [
                  { index: true, ...redirectTo(() => paths.preferences.profile.href()) },
                  {
                    path: paths.preferences.profile.path,
                    lazy: () =>
                      import('@/features/preferences/screens/profile').then((m) => ({ Component: m.ProfileScreen })),
                  },
                  {
                    path: paths.preferences.password.path,
                    lazy: () =>
                      import('@/features/preferences/screens/update-password').then((m) => ({
                        Component: m.UpdatePasswordScreen,
                      })),
                  },
                  {
                    path: paths.preferences.email.path,
                    lazy: () =>
                      import('@/features/preferences/screens/update-email').then((m) => ({
                        Component: m.UpdateEmailScreen,
                      })),
                  },
                ],
              },

              {
                path: paths.companies.new.path,
                lazy: () =>
                  import('@/features/companies/screens/create-company').then((m) => ({
                    Component: m.CreateCompanyScreen,
                  })),
              },
              {
                path: paths.companies.detail.path,
                // another company's URL, or one that does not exist: 'You don't have access to this company'
                lazy: () =>
                  import('@/features/companies/components/company-access').then((m) => ({
                    Component: m.CompanyAccess,
                  })),
                children: [
                  // The company home is its jobs list: its screen starts loading with the redirect, not after it.
                  {
                    index: true,
                    ...redirectTo(({ params }) => {
                      void import('@/features/jobs/screens/jobs-list');
                      prefetchJobsList({ params });
                      return paths.companies.jobs.list.href(param(params, 'companyId'));
                    }),
                  },
                  {
                    path: paths.companies.edit.path,
                    lazy: () =>
                      import('@/features/companies/screens/edit-company').then((m) => ({
                        Component: m.EditCompanyScreen,
                      })),
                  },
                  {
                    path: paths.companies.team.path,
                    lazy: () =>
                      import('@/features/companies/screens/team-members').then((m) => ({
                        Component: m.TeamMembersScreen,
                      })),
                  },
                  {
                    path: paths.companies.webhooks.path,
                    lazy: () =>
                      import('@/features/webhooks/screens/webhooks').then((m) => ({
                        Component: m.WebhooksScreen,
                      })),
                  },
                  {
                    path: paths.companies.auditLog.path,
                    lazy: () =>
                      import('@/features/audit-log/screens/audit-log').then((m) => ({
                        Component: m.AuditLogScreen,
                      })),
                  },
                  {
                    path: paths.companies.decisionMessages.path,
                    lazy: () =>
                      import('@/features/decision-messages/screens/decision-templates').then((m) => ({
                        Component: m.DecisionTemplatesScreen,
                      })),
                  },
                  {
                    path: paths.companies.shareLinks.path,
                    lazy: () =>
                      import('@/features/share-links/screens/company-share-links').then((m) => ({
                        Component: m.CompanyShareLinksScreen,
                      })),
                  },

                  {
                    path: paths.companies.questions.list.path,
                    lazy: () =>
                      import('@/features/questions/screens/questions-list').then((m) => ({
                        Component: m.QuestionsListScreen,
                      })),
                  },
                  {
                    path: paths.companies.questions.new.path,
                    lazy: () =>
                      import('@/features/questions/screens/create-question').then((m) => ({
                        Component: m.CreateQuestionScreen,
                      })),
                  },
                  {
                    path: paths.companies.questions.detail.path,
                    children: [
                      // A question has no screen of its own: its link opens the editor.
                      {
                        index: true,
                        ...redirectTo(({ params }) =>
                          paths.companies.questions.edit.href(param(params, 'companyId'), param(params, 'questionId')),
                        ),
                      },
                      {
                        path: paths.companies.questions.edit.path,
                        // A load error shows what happened in place of the form, inside the shell.
                        ErrorBoundary: QuestionRouteError,
                        lazy: () =>
                          import('@/features/questions/screens/edit-question').then((m) => ({
                            Component: m.EditQuestionScreen,
                            loader: m.editQuestionLoader,
                          })),
                      },
                    ],
                  },

                  {
                    path: paths.companies.analytics.path,
                    lazy: () =>
                      import('@/features/analytics/screens/company-analytics').then((m) => ({
                        Component: m.CompanyAnalyticsScreen,
                      })),
                  },
                  {
                    path: paths.companies.search.path,
                    lazy: () =>
                      import('@/features/search/screens/search-results').then((m) => ({ Component: m.SearchResultsScreen })),
                  },
                  {
                    path: paths.companies.jobs.list.path,
                    loader: prefetchJobsList,
                    lazy: () =>
                      import('@/features/jobs/screens/jobs-list').then((m) => ({ Component: m.JobsListScreen })),
                  },
                  {
                    path: paths.companies.jobs.new.path,
                    lazy: () =>
                      import('@/features/jobs/screens/create-job').then((m) => ({ Component: m.CreateJobScreen })),
                  },
                  {
                    path: paths.companies.jobs.detail.path,
                    // A load error shows what happened in place of the job, inside the shell.
                    ErrorBoundary: JobRouteError,
                    lazy: () =>
                      import('@/features/jobs/screens/job-detail').then((m) => ({ Component: m.JobDetailScreen })),
                  },
                  {
                    path: paths.companies.jobs.edit.path,
                    ErrorBoundary: JobRouteError,
                    lazy: () =>
                      import('@/features/jobs/screens/edit-job').then((m) => ({ Component: m.EditJobScreen, loader: m.editJobLoader })),
                  },
                  {
                    path: paths.companies.jobs.compare.path,
                    ErrorBoundary: JobRouteError,
                    lazy: () =>
                      import('@/features/review/screens/compare-candidates').then((m) => ({
                        Component: m.CompareCandidatesScreen,
                      })),
                  },
                  {
                    path: paths.companies.jobs.analytics.path,
                    lazy: () =>
                      import('@/features/analytics/screens/job-analytics').then((m) => ({
                        Component: m.JobAnalyticsScreen,
                      })),
                  },
                  {
                    path: paths.companies.jobs.candidate.path,
                    ErrorBoundary: CandidateReviewError,
                    lazy: () =>
                      import('@/features/review/screens/candidate-review').then((m) => ({
                        Component: m.CandidateReviewScreen,
                        loader: m.candidateReviewLoader,
                      })),
                  },
                ],
              },
            ],
          },
        ],
      },

      { path: '*', Component: NotFound },
    ],
  },
];

/**
 * A route that only redirects, before anything renders. `element: null` states that it has nothing to show
 * (React Router warns about a matched leaf route without one).
 */
function redirectTo(target: (args: LoaderFunctionArgs) => string) {
  return { loader: (args: LoaderFunctionArgs) => redirect(target(args)), element: null };
}

function keepingSearch(pathname: string) {
  return ({ request }: LoaderFunctionArgs) => pathname + new URL(request.url).search;
}

/** A path parameter the matched pattern guarantees. */
function param(params: Params, name: string): string {
  const value = params[name];
  if (value === undefined) throw new Error(`Route parameter "${name}" is missing.`);
  return value;
}
