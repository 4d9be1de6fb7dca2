/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Why a transcript failed, in a word the review turns into plain words for the manager (transcriptError stays hidden:
// it is the operator's, with the worker's own message). Written by the media worker when it gives up on an answer
// and by the claim route when an answer's attempts are used up; emptied when a manager asks for the transcript again
// or an operator requeues it (server/internal/takes/transcript_retry.go). Only superusers write video_answers.

const FIELD = new SelectField({
  name: "transcriptFailure",
  maxSelect: 1,
  values: ["timed_out", "unreadable_recording", "transcription_failed", "processing_failed", "worker_stopped"],
});

migrate(
  (app) => {
    const videoAnswers = app.findCollectionByNameOrId("video_answers");
    videoAnswers.fields.add(FIELD);
    app.save(videoAnswers);
  },
  (app) => {
    const videoAnswers = app.findCollectionByNameOrId("video_answers");
    videoAnswers.fields.removeByName("transcriptFailure");
    app.save(videoAnswers);
  },
);
