package interview

import (
	"testing"
	"time"
)

func TestReceiptHoldsForItsAnswerOnlyAndForADay(t *testing.T) {
	key := []byte("a key of this server")
	stored := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	const answer, candidate, question = "aaaaaaaaaaaaaaa", "ccccccccccccccc", "qqqqqqqqqqqqqqq"
	digest := TextDigest("My answer")
	receipt := signReceipt(key, stored, answer, candidate, question, digest)

	if !receiptHolds(key, receipt, stored.Add(24*time.Hour), answer, candidate, question, digest) {
		t.Fatal("a day later the receipt should still hold")
	}
	for name, c := range map[string]struct {
		key                                 []byte
		receipt                             string
		now                                 time.Time
		answer, candidate, question, digest string
	}{
		"another answer id":    {key, receipt, stored, "bbbbbbbbbbbbbbb", candidate, question, digest},
		"another candidate":    {key, receipt, stored, answer, "ddddddddddddddd", question, digest},
		"another question":     {key, receipt, stored, answer, candidate, "rrrrrrrrrrrrrrr", digest},
		"another text":         {key, receipt, stored, answer, candidate, question, TextDigest("My answer, changed")},
		"a video of that size": {key, receipt, stored, answer, candidate, question, VideoDigest(9)},
		"another server's key": {[]byte("another key"), receipt, stored, answer, candidate, question, digest},
		"no key":               {nil, receipt, stored, answer, candidate, question, digest},
		"older than its day":   {key, receipt, stored.Add(ReceiptValidity + time.Second), answer, candidate, question, digest},
		"from the future":      {key, receipt, stored.Add(-2 * time.Minute), answer, candidate, question, digest},
		"its time moved":       {key, "v1.1" + receipt[3:], stored, answer, candidate, question, digest},
		"not a receipt":        {key, "v1.x.y", stored, answer, candidate, question, digest},
		"empty":                {key, "", stored, answer, candidate, question, digest},
		"another version":      {key, "v2" + receipt[2:], stored, answer, candidate, question, digest},
	} {
		if receiptHolds(c.key, c.receipt, c.now, c.answer, c.candidate, c.question, c.digest) {
			t.Errorf("%s: the receipt should not hold", name)
		}
	}
}
