/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Origin of the PocketBase API; see .env.example for the defaults. */
  readonly VITE_POCKETBASE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
