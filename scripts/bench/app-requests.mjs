// The requests the app sends, taken from the app's own code rather than written out again: the pipeline's list
// query and page request (src/lib/pipeline-query.ts, src/features/jobs/api/pipeline-request.ts) compiled for Node
// with the installed esbuild, and the exact URL and headers the PocketBase SDK makes of a call.
import { build } from "esbuild";
import PocketBase from "pocketbase";
import { join } from "node:path";
import { root } from "../lib/pocketbase.mjs";

/** The pipeline's URL state and request builders, as the app has them (DEFAULT_PIPELINE, pipelinePageRequest, ...). */
export async function loadPipelineModules() {
  const result = await build({
    stdin: {
      contents: 'export * from "@/lib/pipeline-query"; export * from "@/features/jobs/api/pipeline-request";',
      resolveDir: root,
      loader: "ts",
    },
    tsconfig: join(root, "tsconfig.app.json"),
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "silent",
  });
  return import(`data:text/javascript;base64,${Buffer.from(result.outputFiles[0].text).toString("base64")}`);
}

/**
 * The path (with its query) and headers of the request the SDK sends for `call(pb, fetch)`, signed in with `token`
 * and with the app's Accept-Language (src/lib/pocketbase.ts); `call` passes `fetch` in the SDK call's options, which
 * catches the request instead of sending it.
 */
export async function sdkRequest(url, token, call) {
  const pb = new PocketBase(url, undefined, "en-US");
  pb.autoCancellation(false);
  pb.authStore.save(token, null);
  let sent = null;
  const fetch = async (target, config) => {
    sent = { url: String(target), headers: Object.fromEntries(new Headers(config?.headers).entries()) };
    return new Response(JSON.stringify({ page: 1, perPage: 30, totalItems: 0, totalPages: 0, items: [] }), {
      headers: { "content-type": "application/json" },
    });
  };
  await call(pb, fetch);
  if (!sent) throw new Error("the SDK call sent nothing");
  const target = new URL(sent.url);
  return { path: target.pathname + target.search, headers: sent.headers };
}
