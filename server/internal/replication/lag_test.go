package replication

import (
	"context"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// serveList answers GET /list on a unix socket in a temp dir as Litestream's control socket does.
func serveList(t *testing.T, body string) string {
	t.Helper()
	// a short path: a unix socket's path has at most 107 bytes
	dir, err := os.MkdirTemp("", "lag")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	socket := filepath.Join(dir, "control.sock")
	listener, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /list", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	})
	server := &http.Server{Handler: mux}
	go server.Serve(listener)
	t.Cleanup(func() { server.Close() })
	return socket
}

func TestLagIsTheTimeSinceEachDatabaseLastReachedTheReplica(t *testing.T) {
	socket := serveList(t, `{"databases":[
		{"path":"/var/lib/screenroom/data.db","status":"replicating","last_sync_at":"2030-01-02T03:04:05.5Z"},
		{"path":"/var/lib/screenroom/auxiliary.db","status":"replicating"}]}`)
	now := time.Date(2030, 1, 2, 3, 4, 7, 0, time.UTC)
	lags, err := lagAt(context.Background(), socket, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(lags) != 2 {
		t.Fatalf("got %d databases, want 2", len(lags))
	}
	if lags[0].Database != "data.db" || lags[0].Status != "replicating" || lags[0].Seconds != 1.5 {
		t.Errorf("data.db: got %+v, want 1.5 s behind", lags[0])
	}
	if lags[1].Database != "auxiliary.db" || !math.IsInf(lags[1].Seconds, 1) || !lags[1].LastSyncAt.IsZero() {
		t.Errorf("auxiliary.db, never synced: got %+v, want +Inf", lags[1])
	}
}

func TestLagFailsWithoutLitestream(t *testing.T) {
	_, err := Lag(context.Background(), t.TempDir())
	if err == nil {
		t.Fatal("want an error when no Litestream listens on the socket")
	}
}
