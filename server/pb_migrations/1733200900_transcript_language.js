/// <reference path="../../.cache/pocketbase/types.d.ts" />
// Transcripts follow the job's language. The built-in engine (pocketsphinx) knows English only: an answer of a job
// in another language gets no transcript from it, rather than English words made up from the sounds, and says why
// with its own state, "language_unsupported" (the review shows "Transcripts in this language need the
// Whisper-compatible endpoint"). Its transcript stays empty, so search indexes nothing and the review has no timed
// segments for it. The worker's transcriptError tells the operator which language it was.

const BEFORE = ["pending", "done", "failed"];

migrate(
  (app) => {
    const videoAnswers = app.findCollectionByNameOrId("video_answers");
    videoAnswers.fields.getByName("transcriptStatus").values = [...BEFORE, "language_unsupported"];
    app.save(videoAnswers);
  },
  (app) => {
    // a state the previous schema cannot hold: 'failed' (its transcriptError says why), never 'pending', which the
    // built-in engine would transcribe in English
    app.db().newQuery("UPDATE video_answers SET transcriptStatus = 'failed' WHERE transcriptStatus = 'language_unsupported'").execute();
    const videoAnswers = app.findCollectionByNameOrId("video_answers");
    videoAnswers.fields.getByName("transcriptStatus").values = BEFORE;
    app.save(videoAnswers);
  },
);
