package replication

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"path/filepath"
	"time"
)

// DatabaseLag is how far the replica of one database is behind, by Litestream's own account.
type DatabaseLag struct {
	// Database is the file's name in the data dir: data.db or auxiliary.db.
	Database string
	// Status is Litestream's: replicating, open or stopped.
	Status string
	// LastSyncAt is when Litestream last finished uploading every change it had read from the WAL (zero: never).
	LastSyncAt time.Time
	// Seconds is the time since LastSyncAt: while replication is healthy it stays under the sync interval; it grows
	// while the storage cannot be reached. +Inf when nothing has reached the replica since Litestream started.
	Seconds float64
}

// listResponse is Litestream's GET /list on its control socket (its server.go: ListResponse).
type listResponse struct {
	Databases []struct {
		Path       string     `json:"path"`
		Status     string     `json:"status"`
		LastSyncAt *time.Time `json:"last_sync_at"`
	} `json:"databases"`
}

// Lag asks the Litestream replicating the data dir dataDir, through its control socket, when each database last
// reached the replica. Litestream's Prometheus endpoint has no replica position, only local counters; its control
// socket records the last complete upload of each database. An error means Litestream is not running (or not
// answering): nothing is being replicated.
func Lag(ctx context.Context, dataDir string) ([]DatabaseLag, error) {
	return lagAt(ctx, SocketPath(dataDir), time.Now())
}

func lagAt(ctx context.Context, socket string, now time.Time) ([]DatabaseLag, error) {
	client := &http.Client{
		Transport: &http.Transport{
			DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
				var dialer net.Dialer
				return dialer.DialContext(ctx, "unix", socket)
			},
		},
		Timeout: 5 * time.Second,
	}
	defer client.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://litestream/list", nil)
	if err != nil {
		return nil, err
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("litestream's control socket %s: %w", socket, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("litestream's control socket %s answered %s", socket, res.Status)
	}
	var list listResponse
	if err := json.NewDecoder(res.Body).Decode(&list); err != nil {
		return nil, fmt.Errorf("litestream's control socket %s: %w", socket, err)
	}
	lags := make([]DatabaseLag, 0, len(list.Databases))
	for _, db := range list.Databases {
		lag := DatabaseLag{Database: filepath.Base(db.Path), Status: db.Status, Seconds: math.Inf(1)}
		if db.LastSyncAt != nil {
			lag.LastSyncAt = *db.LastSyncAt
			lag.Seconds = math.Max(0, now.Sub(*db.LastSyncAt).Seconds())
		}
		lags = append(lags, lag)
	}
	return lags, nil
}
