// What the metrics suite reads its figures with: the endpoints' text parsed by prom2json (Prometheus's own parser,
// scripts/lib/prometheus.mjs), a mail server whose answers the test decides, and a webhook receiver likewise.
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { parseExposition } from "../scripts/lib/prometheus.mjs";

type Family = ReturnType<typeof parseExposition>[number];
type Series = Family["metrics"][number];

const matches = (series: Series, labels: Record<string, string>) =>
  Object.entries(labels).every(([name, value]) => (series.labels ?? {})[name] === value);

/** One scrape's figures. Reading a family the scrape does not have fails: a misspelt name cannot read as 0. */
export class Figures {
  readonly byName: Map<string, Family>;
  constructor(families: Family[]) {
    this.byName = new Map(families.map((f) => [f.name, f]));
  }

  family(name: string): Family {
    const family = this.byName.get(name);
    if (!family) throw new Error(`The endpoint does not expose ${name}; it has ${[...this.byName.keys()].join(", ")}`);
    return family;
  }

  /** The sum of a counter's or gauge's series whose labels include `labels`. */
  value(name: string, labels: Record<string, string> = {}): number {
    const family = this.family(name);
    expect(["COUNTER", "GAUGE", "UNTYPED"], `${name} is a ${family.type}`).toContain(family.type);
    return family.metrics.filter((s) => matches(s, labels)).reduce((sum, s) => sum + Number(s.value), 0);
  }

  /** How many observations a histogram's series whose labels include `labels` counted. */
  count(name: string, labels: Record<string, string> = {}): number {
    const family = this.family(name);
    expect(family.type, name).toBe("HISTOGRAM");
    return family.metrics.filter((s) => matches(s, labels)).reduce((sum, s) => sum + Number(s.count), 0);
  }

  /** The names a Prometheus server stores from this scrape: a histogram's as _bucket, _count and _sum. */
  seriesNames(): Set<string> {
    const names = new Set<string>();
    for (const family of this.byName.values()) {
      if (family.type === "HISTOGRAM" || family.type === "SUMMARY") {
        for (const suffix of family.type === "HISTOGRAM" ? ["_bucket", "_count", "_sum"] : ["", "_count", "_sum"]) names.add(family.name + suffix);
      } else {
        names.add(family.name);
      }
    }
    return names;
  }
}

/** GET /metrics with the token (none when null): the answer's status and text. */
export async function fetchMetrics(url: string, token: string | null, init: { authorization?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.authorization !== undefined) headers.Authorization = init.authorization;
  else if (token !== null) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(url, { headers });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** One scrape, parsed. */
export async function scrape(url: string, token: string): Promise<Figures> {
  const { status, text } = await fetchMetrics(url, token);
  expect(status, text).toBe(200);
  return new Figures(parseExposition(text));
}

/** Polls `read` until `done` holds for its value (the suite's timeout bounds the wait); returns that value. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 60_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}; last seen: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Whether a TCP socket listens on exactly this IPv4 address and port (/proc/net/tcp, state 0A). */
export function listensOn(address: string, port: number): { exact: boolean; wildcard: boolean } {
  const hex = (ip: string) =>
    ip
      .split(".")
      .reverse()
      .map((n) => Number(n).toString(16).padStart(2, "0"))
      .join("")
      .toUpperCase();
  const portHex = port.toString(16).padStart(4, "0").toUpperCase();
  const rows = [readFileSync("/proc/net/tcp", "utf8"), readFileSync("/proc/net/tcp6", "utf8")].join("\n").split("\n");
  const listening = rows.map((r) => r.trim().split(/\s+/)).filter((f) => f[3] === "0A" && f[1]?.endsWith(`:${portHex}`)).map((f) => f[1]!);
  return {
    exact: listening.includes(`${hex(address)}:${portHex}`),
    wildcard: listening.some((a) => /^0+:/.test(a)),
  };
}

/** A mail server on 127.0.0.1 that accepts each message, or refuses it at RCPT while `refusing` is true. */
export class FakeSmtp {
  refusing = false;
  accepted: string[] = [];
  refused: string[] = [];
  private server: Server = createServer((socket) => {
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let buffer = "";
    let inData = false;
    let to = "";
    reply("220 fake-smtp.screenroom.test ESMTP");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("latin1");
      let end: number;
      while ((end = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            this.accepted.push(to);
            reply("250 2.0.0 queued");
          }
          continue;
        }
        const verb = line.split(" ")[0]!.toUpperCase();
        if (verb === "EHLO" || verb === "HELO") reply("250 fake-smtp.screenroom.test");
        else if (verb === "RCPT") {
          to = /<([^>]*)>/.exec(line)?.[1] ?? "";
          if (this.refusing) {
            this.refused.push(to);
            reply("550 5.1.1 Mailbox unavailable");
          } else reply("250 2.1.5 OK");
        } else if (verb === "DATA") {
          inData = true;
          reply("354 End data with <CR><LF>.<CR><LF>");
        } else if (verb === "QUIT") {
          reply("221 2.0.0 Bye");
          socket.end();
        } else reply("250 OK");
      }
    });
    socket.on("error", () => {});
  });

  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return this;
  }
  get port() {
    return (this.server.address() as AddressInfo).port;
  }
  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A webhook receiver on 127.0.0.1 answering `status` (200 unless told otherwise), counting what it got. */
export class Receiver {
  status = 200;
  received = 0;
  private server: HttpServer = createHttpServer((req, res) => {
    req.resume();
    req.on("end", () => {
      this.received += 1;
      res.statusCode = this.status;
      res.end("ok");
    });
  });
  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return this;
  }
  url() {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }
  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
