// Starts what the WebKitGTK journeys drive: the e2e stack (scripts/e2e-stack.mjs: the built app served by a fresh
// PocketBase, MailDev, the media worker) and WebKitWebDriver on a virtual display; stops both by their ids.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { E2E } from '../scripts/lib/e2e-ports.mjs';
import { ensureWebKit, startWebKitDriver } from '../scripts/lib/webkit.mjs';

const root = join(import.meta.dirname, '..');
let stack: ChildProcess | undefined;
let driver: Awaited<ReturnType<typeof startWebKitDriver>> | undefined;

async function stopStack() {
  if (!stack || stack.exitCode !== null || stack.signalCode !== null) return;
  const exited = new Promise((resolve) => stack!.once('exit', resolve));
  stack.kill('SIGTERM'); // e2e-stack.mjs stops PocketBase, MailDev and the worker, then exits
  await exited;
}

export async function setup() {
  ensureWebKit();
  // A server already on the port would answer the health check below for a stack that failed to start.
  const taken = await fetch(`${E2E.appUrl}/api/health`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`${E2E.appUrl} already answers: stop that server or set E2E_PB_PORT to a free port.`);
  let output = '';
  stack = spawn(process.execPath, [join(root, 'scripts', 'e2e-stack.mjs')], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  stack.stdout!.on('data', (c) => (output += c));
  stack.stderr!.on('data', (c) => (output += c));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (stack.exitCode !== null) throw new Error(`the e2e stack exited (${stack.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${E2E.appUrl}/api/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      await stopStack();
      throw new Error(`the e2e stack did not come up on ${E2E.appUrl}:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  try {
    driver = await startWebKitDriver({ port: Number(process.env.WEBKIT_DRIVER_PORT) });
  } catch (err) {
    await stopStack();
    throw err;
  }
  console.log(`WebKitGTK e2e: app ${E2E.appUrl}, WebKitWebDriver ${driver.url} (pid ${driver.pid})`);
}

export async function teardown() {
  await driver?.stop();
  await stopStack();
}
