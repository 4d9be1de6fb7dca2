import { toast } from 'sonner';

import { enableToaster } from './toaster';

// The toaster mounts, and sonner downloads, with the first screen whose code can raise a toast (the screens import
// `toast` from here), not after every first paint: a first visit to a screen that raises none (the sign-in, the
// company home, the candidate's start) does not download sonner (issue 20). A toast raised before the toaster has
// mounted is still shown: sonner replays active toasts to a toaster that mounts.
enableToaster();

export { toast };
