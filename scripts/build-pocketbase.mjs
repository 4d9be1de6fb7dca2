// Builds the server (server/cmd/screenroom, around the pinned PocketBase module) into .cache/pocketbase (reused when
// present).
import { ensurePocketBase, StackError } from "./lib/pocketbase.mjs";

try {
  console.log(ensurePocketBase());
} catch (err) {
  if (err instanceof StackError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
