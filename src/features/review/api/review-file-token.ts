import { queryOptions } from '@tanstack/react-query';

import { pb } from '@/lib/pocketbase';
import type { VideoAnswersResponse } from '@/lib/pocketbase-types';

/** PocketBase's file tokens live about 3 minutes: a fresh one every 2 keeps a long review working. */
export const FILE_TOKEN_REFRESH_MS = 2 * 60 * 1000;

/** The signed-in manager's token for protected files (answer videos), refreshed before it expires. */
export const reviewFileTokenQueries = {
  all: () => ['file-token'] as const,
  token: (userId: string) =>
    queryOptions({
      queryKey: [...reviewFileTokenQueries.all(), userId] as const,
      queryFn: () => pb.files.getToken(),
      staleTime: FILE_TOKEN_REFRESH_MS,
      refetchInterval: FILE_TOKEN_REFRESH_MS,
      // a review left in a background tab must still play when the manager comes back
      refetchIntervalInBackground: true,
    }),
};

/** A protected answer video's URL with the manager's file token ('' until there is a token). */
export function answerVideoUrl(video: VideoAnswersResponse, token: string | undefined): string {
  return token && video.file ? pb.files.getURL(video, video.file, { token }) : '';
}
