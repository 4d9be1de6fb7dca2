/// <reference path="../../../.cache/pocketbase/types.d.ts" />
// Sizes the routes accept, in one place. The video file field's own limit (150 MB, migration 1732000000) is read from
// the schema where a request is checked (lib/takes.js maxTakeBytes); the body limits below only have to let it in.

/** A staged take's part: MediaRecorder gives about 150 KB a second; the client sends at most 2 MB. */
const PART_MAX_BYTES = 16 * 1024 * 1024;
/** The video file field's size, for the answers route's body limit. */
const VIDEO_MAX_BYTES = 150 * 1024 * 1024;
/** What PocketBase allows a request besides its files (its default body limit). */
const BODY_BASE_BYTES = 32 * 1024 * 1024;

/** The device check's timed upload (interview.pb.js): the screen sends 384 KB; the bytes are read and dropped. */
const CONNECTION_CHECK_MAX_BYTES = 1024 * 1024;

module.exports = { PART_MAX_BYTES, VIDEO_MAX_BYTES, BODY_BASE_BYTES, CONNECTION_CHECK_MAX_BYTES };
