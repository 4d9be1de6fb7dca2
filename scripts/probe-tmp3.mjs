import { startPocketBase, freePort, UNTHROTTLED } from "./lib/pocketbase.mjs";
import { readFileSync } from "node:fs";
const dataDir = process.argv[2];
const seed = JSON.parse(readFileSync(`${dataDir}/bench-seed-scale-1.json`, "utf8")).seed;
let out = "";
const pb = await startPocketBase({ port: await freePort(), dataDir, env: { ...UNTHROTTLED, APP_URL: "http://x.invalid" }, onOutput: (c) => (out += c) });
try {
  const auth = await (await fetch(`${pb.url}/api/collections/users/auth-with-password`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ identity: seed.manager.email, password: seed.manager.password }) })).json();
  const path = process.argv[3].replace("JOB", seed.jobId).replace("COMPANY", seed.companyId);
  const times = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    const r = await fetch(pb.url + path, { headers: { authorization: auth.token } });
    await r.arrayBuffer();
    if (!r.ok) throw new Error(String(r.status));
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log("median", times[100].toFixed(2), "p90", times[180].toFixed(2));
} finally {
  await pb.stop();
}
if (process.env.PB_DEV === "1") console.log(out.split("\n").filter((l) => l.includes("SELECT")).slice(-80).join("\n"));
