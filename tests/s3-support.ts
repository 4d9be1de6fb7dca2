// Signed S3 requests for the object storage tests (no AWS SDK in the project: AWS Signature Version 4 by hand, the
// few lines the tests need), against the versitygw started by scripts/lib/s3server.mjs.
import { createHash, createHmac } from "node:crypto";

export interface S3Target {
  url: string;
  bucket: string;
  accessKey: string;
  secret: string;
  region: string;
}

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();
const encode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** One request signed with SigV4 (path style: /bucket/key). */
export async function s3Fetch(
  target: S3Target,
  method: string,
  path: string,
  query: Record<string, string> = {},
  body: Buffer = Buffer.alloc(0),
): Promise<Response> {
  const url = new URL(target.url);
  const amzDate = new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
  const day = amzDate.slice(0, 8);
  const payloadHash = sha256(body);
  const canonicalQuery = Object.keys(query)
    .sort()
    .map((k) => `${encode(k)}=${encode(query[k]!)}`)
    .join("&");
  const canonicalPath = path
    .split("/")
    .map((segment) => encode(segment))
    .join("/");
  const headers: Record<string, string> = { host: url.host, "x-amz-content-sha256": payloadHash, "x-amz-date": amzDate };
  const signedHeaders = Object.keys(headers).sort().join(";");
  const canonicalHeaders = Object.keys(headers)
    .sort()
    .map((k) => `${k}:${headers[k]}\n`)
    .join("");
  const canonicalRequest = [method, canonicalPath, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join("\n");
  const scope = `${day}/${target.region}/s3/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonicalRequest)].join("\n");
  let key: Buffer = hmac(`AWS4${target.secret}`, day);
  for (const part of [target.region, "s3", "aws4_request"]) key = hmac(key, part);
  const signature = createHmac("sha256", key).update(stringToSign).digest("hex");
  return fetch(`${target.url}${canonicalPath}${canonicalQuery ? `?${canonicalQuery}` : ""}`, {
    method,
    headers: {
      ...headers,
      authorization: `AWS4-HMAC-SHA256 Credential=${target.accessKey}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
    },
    body: method === "GET" || method === "HEAD" ? undefined : new Uint8Array(body),
  });
}

/** Creates the bucket (PUT /bucket). */
export async function createBucket(target: S3Target): Promise<void> {
  const res = await s3Fetch(target, "PUT", `/${target.bucket}`);
  if (!res.ok) throw new Error(`CreateBucket ${res.status}: ${await res.text()}`);
}

/** Every object key of the bucket under `prefix` (ListObjectsV2, following continuation tokens). */
export async function listKeys(target: S3Target, prefix = ""): Promise<string[]> {
  const keys: string[] = [];
  let token = "";
  for (;;) {
    const query: Record<string, string> = { "list-type": "2", prefix };
    if (token) query["continuation-token"] = token;
    const res = await s3Fetch(target, "GET", `/${target.bucket}`, query);
    const xml = await res.text();
    if (!res.ok) throw new Error(`ListObjectsV2 ${res.status}: ${xml}`);
    for (const match of xml.matchAll(/<Key>([^<]*)<\/Key>/g)) keys.push(decodeXml(match[1]!));
    const next = /<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml);
    if (!next) return keys;
    token = decodeXml(next[1]!);
  }
}

/** An object's bytes (GetObject). */
export async function getObject(target: S3Target, key: string): Promise<Buffer> {
  const res = await s3Fetch(target, "GET", `/${target.bucket}/${key}`);
  if (!res.ok) throw new Error(`GetObject ${key} ${res.status}: ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}

function decodeXml(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}
