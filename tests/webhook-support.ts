// Webhook receivers and checks for the webhook suites: a receiver on 127.0.0.1 (the suites' servers run with
// WEBHOOKS_ALLOW_PRIVATE_TARGETS=1 unless they test the refusal), and the Standard Webhooks signature computed here
// from its definition, never with the server's code.
import { createHmac } from "node:crypto";
import { type IncomingHttpHeaders, createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the receiver answers one request with: a status, or a status with headers (a redirect's Location). */
export type Answer = number | { status: number; headers?: Record<string, string>; delayMs?: number };

/** A webhook receiver on 127.0.0.1: keeps every request, answers with the queued answers, then `otherwise` (200). */
export class Receiver {
  received: Received[] = [];
  connections = 0;
  answers: Answer[] = [];
  /** the answer once the queue is empty */
  otherwise: Answer = 200;
  private server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      this.received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const answer = this.answers.shift() ?? this.otherwise;
      const { status, headers = {}, delayMs = 0 } = typeof answer === "number" ? { status: answer } : answer;
      setTimeout(() => {
        res.writeHead(status, headers);
        res.end("ok");
      }, delayMs);
    });
  });

  async start() {
    this.server.on("connection", () => (this.connections += 1));
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return this;
  }
  get port() {
    return (this.server.address() as AddressInfo).port;
  }
  url(path = "/hook") {
    return `http://127.0.0.1:${this.port}${path}`;
  }
  /** the requests of one event type, parsed */
  of(type: string) {
    return this.received.filter((r) => JSON.parse(r.body).type === type);
  }
  /** the requests that carried this webhook-id */
  withId(id: string) {
    return this.received.filter((r) => r.headers["webhook-id"] === id);
  }
  stop() {
    this.server.closeAllConnections();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Polls `check` until it returns something truthy (the suite's timeout bounds the wait). */
export async function until<T>(check: () => Promise<T> | T): Promise<NonNullable<T>> {
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The Standard Webhooks signature: base64 HMAC-SHA256 of "id.timestamp.body" keyed with the secret's decoded bytes. */
export function expectedSignature(secret: string, id: string, timestamp: string, body: string) {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
}

/** The v1 signatures a request carries, in order. */
export function signaturesOf(request: Received): string[] {
  return String(request.headers["webhook-signature"] ?? "").split(" ");
}

/** The signatures `secret` would make for this request (to compare with signaturesOf). */
export function signatureBy(secret: string, request: Received): string {
  return `v1,${expectedSignature(secret, String(request.headers["webhook-id"]), String(request.headers["webhook-timestamp"]), request.body)}`;
}
