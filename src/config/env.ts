const DEVELOPMENT_API_URL = 'http://127.0.0.1:8090';

function resolveApiUrl(): string {
  const configured = import.meta.env.VITE_POCKETBASE_URL?.trim();
  if (configured) return configured;
  // In production PocketBase serves the SPA from pb_public, so the API shares the page's origin.
  return import.meta.env.PROD ? window.location.origin : DEVELOPMENT_API_URL;
}

export const env = {
  apiUrl: resolveApiUrl(),
} as const;
