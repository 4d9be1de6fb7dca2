/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Issue 23: Safari on iOS may record a QuickTime-flavoured MP4 (brand "qt  "), which PocketBase's content sniffing
// names video/quicktime; the video field refused it, so such a candidate's answer could never be stored. The answer
// keeps mimeType video/mp4 (answers.pb.js derives it from the name answer.mp4), and the media worker remuxes it into
// a plain MP4 the review plays.

migrate(
  (app) => {
    const collection = app.findCollectionByNameOrId("video_answers");
    const file = collection.fields.getByName("file");
    file.mimeTypes = ["video/webm", "video/mp4", "video/quicktime"];
    app.save(collection);
  },
  (app) => {
    const collection = app.findCollectionByNameOrId("video_answers");
    const file = collection.fields.getByName("file");
    file.mimeTypes = ["video/webm", "video/mp4"];
    app.save(collection);
  },
);
