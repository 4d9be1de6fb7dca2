import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { readBytes } from './take-check';
import { webmSeconds } from './webm-length';

const bytes = (name: string) => readFileSync(join(__dirname, '../../../../tests/fixtures', name));
const fixture = (name: string) => new Blob([bytes(name)]);

describe('webmSeconds', () => {
  // ffprobe's length of each (the last packet's time and duration): within a frame of it
  it.each([
    ['chromium-recording.webm', 4.015],
    ['firefox-recording.webm', 4.019],
    ['answer.webm', 1.014],
    ['mediarecorder-unsized.webm', 5.014],
    ['mediarecorder-sized.webm', 5.014],
  ])('reads %s as ffprobe does, from its header and last cluster', async (name, ffprobe) => {
    const seconds = await webmSeconds(fixture(name), readBytes);
    expect(seconds).not.toBeNull();
    expect(Math.abs(seconds! - ffprobe)).toBeLessThan(0.1);
  });

  it('reads the last cluster of a take longer than its first tail read', async () => {
    // the fixture's clusters with 2 MB of a Void element (0xEC) after its header: the tail read first holds no
    // cluster start, the second does
    const file = bytes('mediarecorder-unsized.webm');
    const clusterAt = file.findIndex((_, i) => file[i] === 0x1f && file[i + 1] === 0x43 && file[i + 2] === 0xb6 && file[i + 3] === 0x75);
    const voidSize = 2 * 1024 * 1024;
    const voidElement = new Uint8Array([0xec, 0x08, 0, 0, 0, 0, 0, (voidSize >> 16) & 0xff, (voidSize >> 8) & 0xff, voidSize & 0xff]);
    const lastCluster = file.lastIndexOf(Buffer.from([0x1f, 0x43, 0xb6, 0x75]));
    const long = new Blob([file.subarray(0, clusterAt), file.subarray(clusterAt, lastCluster), voidElement, new Uint8Array(voidSize), file.subarray(lastCluster)]);
    expect(await webmSeconds(long, readBytes)).toBeCloseTo(5.014, 1);
  });

  it('takes the latest block of the last cluster, in the segment\'s timestamp scale', async () => {
    // ticks of 10 ms; the cluster at 2 s; blocks at +0.5 s, -0.2 s and (in a BlockGroup) +0.3 s
    const take = webm(10_000_000, cluster(200, simpleBlock(50), simpleBlock(-20), blockGroup(30)));
    expect(await webmSeconds(take, readBytes)).toBeCloseTo(2.5, 6);
  });

  it('says nothing of what it cannot be sure of: an MP4, a cut-off take, a laced block, no cluster', async () => {
    expect(await webmSeconds(fixture('mediarecorder-fragmented.mp4'), readBytes)).toBeNull();
    const file = bytes('mediarecorder-unsized.webm');
    expect(await webmSeconds(new Blob([file.subarray(0, file.length - 7)]), readBytes)).toBeNull();
    expect(await webmSeconds(new Blob([file.subarray(0, 200)]), readBytes)).toBeNull();
    expect(await webmSeconds(webm(1_000_000, cluster(1000, simpleBlock(5, 0x02))), readBytes)).toBeNull();
    expect(await webmSeconds(webm(1_000_000, cluster(1000, simpleBlock(5)).subarray(0, 12)), readBytes)).toBeNull();
    expect(await webmSeconds(webm(1_000_000, cluster(1000)), readBytes)).toBeNull();
  });
});

/** An EBML element: its ID's bytes, its size (one byte), its body. */
function el(id: number[], ...body: Uint8Array[]): Uint8Array {
  const length = body.reduce((sum, part) => sum + part.length, 0);
  return concat(Uint8Array.from(id), Uint8Array.of(0x80 | length), ...body);
}

const UNKNOWN_SIZE = Uint8Array.of(0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const uint = (value: number, width: number) => Uint8Array.from({ length: width }, (_, i) => (value / 256 ** (width - 1 - i)) & 0xff);
const text = (value: string) => Uint8Array.from(value, (c) => c.charCodeAt(0));

/** A WebM as MediaRecorder writes one: a segment of unknown size, its timestamp scale, one track, then `clusters`. */
function webm(scale: number, ...clusters: Uint8Array[]): Blob {
  const header = el([0x1a, 0x45, 0xdf, 0xa3], el([0x42, 0x82], text('webm')));
  const info = el([0x15, 0x49, 0xa9, 0x66], el([0x2a, 0xd7, 0xb1], uint(scale, 4)));
  const tracks = el([0x16, 0x54, 0xae, 0x6b], el([0xae], el([0xd7], uint(1, 1)), el([0x86], text('V_VP8'))));
  return new Blob([concat(header, Uint8Array.of(0x18, 0x53, 0x80, 0x67), UNKNOWN_SIZE, info, tracks, ...clusters)]);
}

/** A cluster of unknown size at `timecode` ticks holding `blocks`. */
function cluster(timecode: number, ...blocks: Uint8Array[]): Uint8Array {
  return concat(Uint8Array.of(0x1f, 0x43, 0xb6, 0x75), UNKNOWN_SIZE, el([0xe7], uint(timecode, 2)), ...blocks);
}

/** A block of track 1 at `relative` ticks from its cluster, with `flags` (0x02: laced), and a few bytes of frame. */
const blockBody = (relative: number, flags = 0x80) => concat(Uint8Array.of(0x81), uint(relative & 0xffff, 2), Uint8Array.of(flags, 1, 2, 3));
const simpleBlock = (relative: number, flags?: number) => el([0xa3], blockBody(relative, flags));
const blockGroup = (relative: number) => el([0xa0], el([0xa1], blockBody(relative, 0)));
