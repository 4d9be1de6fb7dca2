// WebKitGTK (Safari's engine) for the end-to-end journeys in e2e-webkit/: Debian's packages, installed when
// missing, and WebKitWebDriver started on a virtual X display. Only node built-ins here, like deps.mjs, so the
// install step runs before node_modules exists.
//
// Debian 12 ships WebKitGTK 2.50 (bookworm and bookworm-security). What each package is for:
//   webkit2gtk-driver           /usr/bin/WebKitWebDriver, the WebDriver server
//   libwebkit2gtk-4.1-0         the engine, and the MiniBrowser the driver launches (MINIBROWSER below)
//   xvfb, xauth                 xvfb-run: a virtual display for the browser (no desktop on CI)
//   gstreamer1.0-plugins-bad,   the engine's Recommends: without them MediaRecorder is "unsupported on this platform"
//   gstreamer1.0-libav          and isTypeSupported() says false for every type; with them 'video/mp4' is true
//                               (the recorder still delivers 0 bytes of video on Debian 12's GStreamer 1.22, with
//                               x264enc from gstreamer1.0-plugins-ugly too: README, "Supported browsers").
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { StackError } from "./pocketbase.mjs";

// Debian's multiarch folder of this machine (amd64 or arm64).
const triplet = process.arch === "arm64" ? "aarch64-linux-gnu" : "x86_64-linux-gnu";
export const MINIBROWSER = process.env.WEBKIT_MINIBROWSER || `/usr/lib/${triplet}/webkit2gtk-4.1/MiniBrowser`;

function installed(pkg) {
  return spawnSync("dpkg-query", ["-W", "-f=${Status}", pkg], { encoding: "utf8" }).stdout?.includes("install ok installed");
}

function versionOf(pkg) {
  return spawnSync("dpkg-query", ["-W", "-f=${Version}", pkg], { encoding: "utf8" }).stdout?.trim() || "not installed";
}

export const WEBKIT_PACKAGES = [
  { pkg: "webkit2gtk-driver", check: () => existsSync("/usr/bin/WebKitWebDriver") },
  { pkg: "libwebkit2gtk-4.1-0", check: () => existsSync(MINIBROWSER) },
  { pkg: "xvfb", check: () => existsSync("/usr/bin/xvfb-run") && existsSync("/usr/bin/Xvfb") },
  { pkg: "xauth", check: () => existsSync("/usr/bin/xauth") },
  { pkg: "gstreamer1.0-plugins-bad", check: () => installed("gstreamer1.0-plugins-bad") },
  { pkg: "gstreamer1.0-libav", check: () => installed("gstreamer1.0-libav") },
];

/** Installs what is missing with apt-get (as root), then prints the versions the journeys run on. Idempotent. */
export function ensureWebKit({ log = console.log, packages = WEBKIT_PACKAGES } = {}) {
  const missing = packages.filter((p) => !p.check()).map((p) => p.pkg);
  if (missing.length > 0) {
    const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
    if (!isRoot || spawnSync("bash", ["-c", "command -v apt-get"], { stdio: "ignore" }).status !== 0) {
      throw new StackError(
        `Missing packages for the WebKitGTK tests: ${missing.join(", ")}.\n` +
          `Install them first, e.g.: sudo apt-get install -y --no-install-recommends ${missing.join(" ")}`,
      );
    }
    log(`Installing Debian packages for WebKitGTK: ${missing.join(", ")}...`);
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    let result = spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    if (result.status !== 0) throw new StackError("apt-get update failed: see its output above.");
    result = spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...missing], { stdio: "inherit", env });
    if (result.status !== 0) throw new StackError(`apt-get install ${missing.join(" ")} failed: see its output above.`);
  }
  const versions = {
    webkitgtk: versionOf("libwebkit2gtk-4.1-0"),
    driver: versionOf("webkit2gtk-driver"),
    gstreamer: versionOf("libgstreamer1.0-0"),
  };
  log(`WebKitGTK ${versions.webkitgtk} (WebKitWebDriver ${versions.driver}, GStreamer ${versions.gstreamer})`);
  return versions;
}

/**
 * `xvfb-run -a WebKitWebDriver --port=<port>` in its own process group (xvfb-run starts Xvfb and the driver; the
 * driver starts one MiniBrowser a session), ready once GET /status says so. `stop()` ends that group by its id.
 */
export async function startWebKitDriver({ port, timeoutMs = 30_000, log = () => {} }) {
  const child = spawn("xvfb-run", ["-a", "-s", "-screen 0 1280x1024x24", "WebKitWebDriver", `--port=${port}`], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk) => {
    output = (output + chunk).slice(-20_000);
    log(String(chunk));
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      return; // already gone
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        /* gone */
      }
    }, 5_000);
    await exited;
    clearTimeout(timer);
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new StackError(`WebKitWebDriver exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/status`);
      if (res.ok && (await res.json()).value?.ready) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new StackError(`WebKitWebDriver did not answer on ${url} within ${timeoutMs / 1000} s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, pid: child.pid, stop, output: () => output };
}
