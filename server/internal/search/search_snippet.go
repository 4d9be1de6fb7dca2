package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A search hit's snippet, made in Go from what the ranking already read (README "Search across answers").
//
// FTS5's snippet() tokenizes the answer again, in C compiled to Go (modernc.org/sqlite), and needs a second walk of
// the page's matches to run at all: a third of a search's time at 180 characters an answer, more on long
// transcripts. The ranking function (screenroom_rank_noted, fts5_rank.go) notes each ranked row's matches (phrase and
// token position, FTS5's own) and its token count, and the window query reads the answer's text from the table's
// content; searchSnippet then picks and marks the window as snippet(answer_search, 0, char(2), char(3), '…', 24)
// does (SQLite 3.53's fts5SnippetFunction, fts5SnippetScore, fts5SentenceFinderCb, fts5CInstIter and
// fts5HighlightCb), over token boundaries found by the rules of FTS5's unicode61 tokenizer (porter stems a token,
// never moves it). When the boundaries found here do not count as many tokens as FTS5 stored (a character whose
// Unicode category changed after SQLite's tables were made, or text that is not UTF-8), the hit's snippet comes from
// snippet() after all (searchSnippets). search_snippet_test.go compares the two on random texts.

// snippetTokens is the number of tokens of a snippet (snippet()'s fifth argument).
const snippetTokens = 24

const (
	snippetOpen     = "\x02"
	snippetClose    = "\x03"
	snippetEllipsis = "…"
)

// rankInstance is one match of a phrase in the answer: the phrase's number in the query and the token it starts at.
type rankInstance struct{ phrase, offset int32 }

// rankedRow is what the ranking function noted of one row: its matches in FTS5's order (by position) and how many
// tokens FTS5 stored for the answer.
type rankedRow struct {
	size      int32
	instances []rankInstance
}

// textToken is one token of an answer: its bytes in the text.
type textToken struct{ start, end int }

// fts5Diacritic is sqlite3Fts5UnicodeIsdiacritic: the combining marks unicode61 keeps inside a token (and folds
// away) though they are not token characters of their own.
func fts5Diacritic(r rune) bool {
	const mask0, mask1 = 0x08029FDF, 0x000361F8
	if r < 768 || r > 817 {
		return false
	}
	if r < 768+32 {
		return mask0&(1<<(r-768)) != 0
	}
	return mask1&(1<<(r-768-32)) != 0
}

// fts5TokenChar: unicode61's default token characters: the categories L*, N* and Co (ASCII: letters and digits),
// and what SQLite's tables do not know (its category 0, which unicode61 always counts as a token character): here
// the code points no category of Go's tables holds.
func fts5TokenChar(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r) || !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.C)
}

// fts5KnownSeparator: a character outside ASCII that is no token character here and is known to be none in SQLite's
// tables too (search_snippet_test.go checks each against FTS5): Latin-1's punctuation and symbols, the combining
// diacritics, general punctuation (spaces, dashes, quotes, the ellipsis; not U+2065-U+2069, the isolates Unicode
// 6.3 added after SQLite's tables were made) and CJK punctuation. Any other (an emoji, a symbol newer than those
// tables) may be a token character there, and the text's snippet is left to snippet().
func fts5KnownSeparator(r rune) bool {
	return r >= 0x80 && r <= 0xFF || r >= 0x300 && r <= 0x36F || r >= 0x2000 && r <= 0x2064 || r >= 0x206A && r <= 0x206F ||
		r >= 0x3000 && r <= 0x303F
}

// fts5Tokenize: the tokens of text as unicode61 splits it (a token starts at a token character and goes on through
// token characters and diacritics), with the positions of the tokens that start a sentence as fts5SentenceFinderCb
// finds them: the first, and each one whose preceding spaces follow a '.' or a ':'. ok false when the text holds what
// SQLite may split otherwise (fts5KnownSeparator) or is not UTF-8.
func fts5Tokenize(text string) (tokens []textToken, sentences []int32, ok bool) {
	tokens = make([]textToken, 0, len(text)/5+1)
	known := func(r rune, size int) bool {
		return r < utf8.RuneSelf || (r != utf8.RuneError || size > 1) && (fts5TokenChar(r) || fts5KnownSeparator(r))
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !known(r, size) {
			return nil, nil, false
		}
		if !fts5TokenChar(r) {
			i += size
			continue
		}
		start := i
		for i += size; i < len(text); i += size {
			r, size = utf8.DecodeRuneInString(text[i:])
			if !known(r, size) {
				return nil, nil, false
			}
			if !fts5TokenChar(r) && !fts5Diacritic(r) {
				break
			}
		}
		if len(tokens) == 0 {
			sentences = append(sentences, 0)
		} else {
			j := start - 1
			for j >= 0 && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r') {
				j--
			}
			if j != start-1 && j >= 0 && (text[j] == '.' || text[j] == ':') {
				sentences = append(sentences, int32(len(tokens)))
			}
		}
		tokens = append(tokens, textToken{start, i})
	}
	return tokens, sentences, true
}

// snippetScore is fts5SnippetScore: the score of the window of nToken tokens from position at (1000 for each phrase
// met first, 1 for each match again) and where a window around those matches would start.
func snippetScore(row rankedRow, phraseSizes []int32, seen []bool, at, nToken int32) (score, adjusted int32) {
	first, last := int32(-1), int32(0)
	for _, instance := range row.instances {
		if instance.offset >= at && instance.offset < at+nToken {
			if seen[instance.phrase] {
				score++
			} else {
				score += 1000
			}
			seen[instance.phrase] = true
			if first < 0 {
				first = instance.offset
			}
			last = instance.offset + phraseSizes[instance.phrase]
		}
	}
	adjusted = first - (nToken-(last-first))/2
	if adjusted+nToken > row.size {
		adjusted = row.size - nToken
	}
	return score, max(adjusted, 0)
}

// searchSnippet is snippet(answer_search, 0, char(2), char(3), '…', 24) for a row the ranking noted, from its text;
// ok false when the text's tokens here are not the ones FTS5 stored.
func searchSnippet(text string, row rankedRow, phraseSizes []int32) (string, bool) {
	tokens, sentences, ok := fts5Tokenize(text)
	if !ok || int32(len(tokens)) != row.size {
		return "", false
	}
	for _, instance := range row.instances {
		if instance.phrase < 0 || int(instance.phrase) >= len(phraseSizes) || instance.offset < 0 || instance.offset > row.size {
			return "", false
		}
	}
	const nToken = snippetTokens

	// the best window: fts5SnippetFunction's loop over the matches, each scored as the centre of a window and,
	// when the answer is longer than a window, from the start of its sentence (a bonus of 100, 120 for the first)
	seen := make([]bool, len(phraseSizes))
	var bestScore, bestStart int32
	for _, instance := range row.instances {
		clear(seen)
		score, adjusted := snippetScore(row, phraseSizes, seen, instance.offset, nToken)
		if score > bestScore {
			bestScore, bestStart = score, adjusted
		}
		if len(sentences) > 0 && row.size > nToken {
			jj := 0
			for ; jj < len(sentences)-1; jj++ {
				if sentences[jj+1] > instance.offset {
					break
				}
			}
			if sentences[jj] < instance.offset {
				clear(seen)
				score, _ := snippetScore(row, phraseSizes, seen, sentences[jj], nToken)
				if sentences[jj] == 0 {
					score += 120
				} else {
					score += 100
				}
				if score > bestScore {
					bestScore, bestStart = score, sentences[jj]
				}
			}
		}
	}

	// the matches, overlapping ones merged (fts5CInstIter), from the first that starts in the window
	type span struct{ start, end int32 }
	var spans []span
	for _, instance := range row.instances {
		end := instance.offset - 1 + phraseSizes[instance.phrase]
		if n := len(spans); n > 0 && instance.offset <= spans[n-1].end {
			spans[n-1].end = max(spans[n-1].end, end)
			continue
		}
		spans = append(spans, span{instance.offset, end})
	}
	next := 0
	for next < len(spans) && spans[next].start < bestStart {
		next++
	}
	current := func() span {
		if next < len(spans) {
			return spans[next]
		}
		return span{-1, -1}
	}

	// fts5HighlightCb over the tokens of the window
	var out strings.Builder
	out.Grow(len(text)/2 + 16)
	rangeStart, rangeEnd := bestStart, bestStart+nToken-1
	if bestStart > 0 {
		out.WriteString(snippetEllipsis)
	}
	offset, open := 0, false
	for position := rangeStart; position <= rangeEnd && position < row.size; position++ {
		token := tokens[position]
		if rangeStart != 0 && position == rangeStart {
			offset = token.start
		}
		match := current()
		if open && (position <= match.start || match.start < 0) && token.start > offset {
			out.WriteString(snippetClose)
			open = false
		}
		if position == match.start && !open {
			out.WriteString(text[offset:token.start])
			out.WriteString(snippetOpen)
			offset, open = token.start, true
		}
		if position == match.end {
			if !open {
				out.WriteString(snippetOpen)
				open = true
			}
			out.WriteString(text[offset:token.end])
			offset = token.end
			next++
		}
		if position == rangeEnd {
			if open {
				if match := current(); match.start >= 0 && position >= match.start {
					out.WriteString(text[offset:token.end])
					offset = token.end
				}
				out.WriteString(snippetClose)
				open = false
			}
			out.WriteString(text[offset:token.end])
			offset = token.end
		}
	}
	if open {
		out.WriteString(snippetClose)
	}
	if rangeEnd >= row.size-1 {
		out.WriteString(text[offset:])
	} else {
		out.WriteString(snippetEllipsis)
	}
	return out.String(), true
}
