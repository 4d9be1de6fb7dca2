// `node scripts/bench/seed-only.mjs --scale=N`: seeds the bench's data set on a stack of its own and prints how long
// it took (the figures' `seed`), then stops; for timing the seeder alone.
import { ensureNodeModules } from "../lib/deps.mjs";
import { ensurePocketBase } from "../lib/pocketbase.mjs";

ensureNodeModules();
ensurePocketBase();
const { seedStack, startStack } = await import("./stack.mjs");
const stack = await startStack();
try {
  const { counts } = await seedStack(stack.url, stack.dataDir);
  console.log(JSON.stringify(counts));
} finally {
  await stack.stop();
}
