package platform

// Sizes the routes accept, in one place. The video file field's own limit (150 MB, migration 1732000000) is read
// from the schema where a request is checked; the body limits below only have to let it in.
const (
	// PartMaxBytes is a staged take's part: MediaRecorder gives about 150 KB a second; the client sends at most 2 MB.
	PartMaxBytes = 16 * 1024 * 1024
	// VideoMaxBytes is the video file field's size, for the answers route's body limit.
	VideoMaxBytes = 150 * 1024 * 1024
	// BodyBaseBytes is what PocketBase allows a request besides its files (its default body limit).
	BodyBaseBytes = 32 * 1024 * 1024
	// ConnectionCheckMaxBytes is the device check's timed upload: the screen sends 1000 KB (twice at most), read
	// and dropped.
	ConnectionCheckMaxBytes = 1024 * 1024
	// CandidateChoiceMaxBytes is a candidate's small JSON choice (the language route's { "language": "de" }).
	CandidateChoiceMaxBytes = 1024
	// BulkRequestMaxBytes is a bulk action's JSON: up to 1,000 candidate ids (15 characters, quoted) or a filter.
	BulkRequestMaxBytes = 128 * 1024
	// DecisionMessageMaxBytes is a decision message route's JSON: a template's subject (200 characters) and body
	// (5,000), each up to four bytes a character, escaped.
	DecisionMessageMaxBytes = 64 * 1024
)
