package jobs

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"
)

func TestListCacheAnswersOnlyTheSameVersionAndShape(t *testing.T) {
	cache := &listCache{entries: map[string]listCacheEntry{}, limit: 1 << 10}
	cache.put("a", 3, "cols", []byte(`[1]`))
	if body, ok := cache.get("a", 3, "cols"); !ok || !bytes.Equal(body, []byte(`[1]`)) {
		t.Fatalf("same version and shape: got %q, %v", body, ok)
	}
	for _, miss := range []struct {
		key     string
		version int64
		shape   string
	}{{"a", 4, "cols"}, {"a", 2, "cols"}, {"a", 3, "other cols"}, {"b", 3, "cols"}} {
		if _, ok := cache.get(miss.key, miss.version, miss.shape); ok {
			t.Errorf("%+v answered from the cache", miss)
		}
	}
	cache.put("a", 4, "cols", []byte(`[1,2]`))
	if body, ok := cache.get("a", 4, "cols"); !ok || string(body) != `[1,2]` {
		t.Fatalf("the newer list: got %q, %v", body, ok)
	}
	if cache.size != len(`[1,2]`) || len(cache.entries) != 1 {
		t.Errorf("a replaced entry still counted: size %d, %d entries", cache.size, len(cache.entries))
	}
}

func TestListCacheStaysWithinItsLimit(t *testing.T) {
	cache := &listCache{entries: map[string]listCacheEntry{}, limit: 100}
	for i, key := range []string{"a", "b", "c", "d", "e"} {
		cache.put(key, int64(i), "cols", bytes.Repeat([]byte("x"), 40))
		if cache.size > cache.limit {
			t.Fatalf("after %q: %d bytes kept, limit %d", key, cache.size, cache.limit)
		}
		if _, ok := cache.get(key, int64(i), "cols"); !ok {
			t.Fatalf("the list just kept (%q) is not there", key)
		}
	}
	if len(cache.entries) != 2 {
		t.Errorf("%d entries of 40 bytes within 100", len(cache.entries))
	}
	cache.put("huge", 1, "cols", bytes.Repeat([]byte("x"), 101))
	if _, ok := cache.get("huge", 1, "cols"); ok || cache.size > cache.limit {
		t.Errorf("a list over the whole limit was kept (size %d)", cache.size)
	}
}

func TestListCacheKeepsTheGzippedBodyWithItsEntry(t *testing.T) {
	cache := &listCache{entries: map[string]listCacheEntry{}, limit: 1 << 20}
	body := bytes.Repeat([]byte(`{"id":"abc","title":"Support engineer"},`), 200)
	cache.put("a", 1, "cols", body)
	gz := cache.gzipped("a", 1, "cols", body)
	r, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(plain, body) {
		t.Fatalf("gunzipped body differs (%v)", err)
	}
	if again := cache.gzipped("a", 1, "cols", body); &again[0] != &gz[0] {
		t.Error("the gzipped body was made again instead of kept")
	}
	if cache.size != len(body)+len(gz) {
		t.Errorf("size %d, want body and gzipped %d", cache.size, len(body)+len(gz))
	}
	cache.put("a", 2, "cols", []byte(`[]`))
	if cache.size != 2 {
		t.Errorf("a replaced entry's gzipped body still counted: size %d", cache.size)
	}
	// a newer entry is never given an older body's gzip
	cache.gzipped("a", 1, "cols", body)
	if cache.entries["a"].gzipped != nil {
		t.Error("an older version's gzip was kept with the newer entry")
	}
}

func TestAcceptsGzipReadsTheHeaderAsBrowsersSendIt(t *testing.T) {
	for header, want := range map[string]bool{
		"gzip, deflate, br, zstd": true,
		"br;q=1.0, gzip;q=0.8":    true,
		"*":                       true,
		"":                        false,
		"identity":                false,
		"gzip;q=0":                false,
		"gzip; q=0.000, br":       false,
		"deflate, GZIP":           true,
	} {
		if got := acceptsGzip(header); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", header, got, want)
		}
	}
}
