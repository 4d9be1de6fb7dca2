/// <reference path="../../.cache/pocketbase/types.d.ts" />
// The media worker's job claim on video_answers (issue 7): who holds the answer and since when, so two
// workers (or a worker restarted mid-job) never process the same answer at once, and a crashed worker's
// claim expires. Hidden: only superusers (the worker) see them.

migrate(
  (app) => {
    const videoAnswers = app.findCollectionByNameOrId("video_answers");
    videoAnswers.fields.add(new TextField({ name: "transcriptClaimedBy", max: 200, hidden: true }));
    videoAnswers.fields.add(new DateField({ name: "transcriptClaimedAt", hidden: true }));
    videoAnswers.fields.add(new TextField({ name: "transcriptError", max: 2000, hidden: true }));
    app.save(videoAnswers);
  },
  (app) => {
    const videoAnswers = app.findCollectionByNameOrId("video_answers");
    for (const name of ["transcriptClaimedBy", "transcriptClaimedAt", "transcriptError"]) videoAnswers.fields.removeByName(name);
    app.save(videoAnswers);
  },
);
