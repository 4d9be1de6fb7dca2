package metrics

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// MinTokenLength is the shortest METRICS_TOKEN accepted: a token is what stands between the figures and anyone who
// reaches the port.
const MinTokenLength = 32

// EndpointConfig is where the endpoint listens and the token a scrape must present ("" for none).
type EndpointConfig struct {
	Listen string
	Token  string
}

// endpointConfigFromEnv reads METRICS_LISTEN and METRICS_TOKEN; ok is false when METRICS_LISTEN is unset (no
// endpoint). An address the rule refuses is an error, and the server does not start.
func endpointConfigFromEnv() (config EndpointConfig, ok bool, err error) {
	config = EndpointConfig{Listen: strings.TrimSpace(os.Getenv("METRICS_LISTEN")), Token: strings.TrimSpace(os.Getenv("METRICS_TOKEN"))}
	if config.Listen == "" {
		return config, false, nil
	}
	return config, true, CheckEndpoint(config)
}

// CheckEndpoint is the rule of both endpoints (the worker's says the same in worker/src/metrics.ts): a host:port; a
// token, when given, of at least MinTokenLength characters; and an address off the loopback (0.0.0.0, a LAN address,
// a name) only with a token, so the figures are never open to the network.
func CheckEndpoint(config EndpointConfig) error {
	host, port, err := net.SplitHostPort(config.Listen)
	if err != nil || port == "" {
		return fmt.Errorf("METRICS_LISTEN must be host:port (e.g. 127.0.0.1:9464), not %q", config.Listen)
	}
	if config.Token != "" && len(config.Token) < MinTokenLength {
		return fmt.Errorf("METRICS_TOKEN must have at least %d characters (e.g. openssl rand -hex 32)", MinTokenLength)
	}
	if config.Token == "" && !isLoopback(host) {
		return fmt.Errorf("METRICS_LISTEN=%s is reachable from other machines: set METRICS_TOKEN, or listen on 127.0.0.1", config.Listen)
	}
	return nil
}

// isLoopback: an address in 127.0.0.0/8 or ::1 (a name, even localhost, may resolve elsewhere; an empty host is
// every interface).
func isLoopback(host string) bool {
	addr, err := netip.ParseAddr(host)
	return err == nil && addr.Unmap().IsLoopback()
}

// Handler serves the registry's metrics at /metrics to a request presenting the token (when there is one) as
// `Authorization: Bearer <token>`: 401 otherwise, 404 for any other path, 405 for a method other than GET or HEAD.
func Handler(token string) http.Handler {
	metrics := promhttp.HandlerFor(registry, promhttp.HandlerOpts{
		// one figure that cannot be read (a busy database) leaves the others served
		ErrorHandling:       promhttp.ContinueOnError,
		MaxRequestsInFlight: 4,
		Timeout:             10 * time.Second,
	})
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" {
			http.NotFound(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "Method not allowed.", http.StatusMethodNotAllowed)
			return
		}
		if token != "" {
			presented, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			got := sha256.Sum256([]byte(presented))
			// compared as hashes: the time taken says nothing of the token's length or of a matching prefix
			if !ok || subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="screenroom metrics"`)
				http.Error(w, "A valid metrics token is required.", http.StatusUnauthorized)
				return
			}
		}
		metrics.ServeHTTP(w, r)
	})
}

// registerEndpoint starts the listener with `serve` (bound before PocketBase answers, so a port already taken stops
// the start with a clear message) and closes it on terminate.
func registerEndpoint(app core.App) {
	var server *http.Server
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		config, ok, err := endpointConfigFromEnv()
		if err != nil {
			return err
		}
		if !ok {
			return se.Next()
		}
		listener, err := net.Listen("tcp", config.Listen)
		if err != nil {
			return fmt.Errorf("metrics: cannot listen on METRICS_LISTEN=%s: %w", config.Listen, err)
		}
		server = &http.Server{Handler: Handler(config.Token), ReadHeaderTimeout: 10 * time.Second}
		go func() {
			if err := server.Serve(listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
				se.App.Logger().Error("metrics: the endpoint stopped", "error", err.Error())
			}
		}()
		auth := "no token (loopback only)"
		if config.Token != "" {
			auth = "bearer token"
		}
		se.App.Logger().Info("metrics: serving", "address", "http://"+listener.Addr().String()+"/metrics", "auth", auth)
		return se.Next()
	})
	app.OnTerminate().BindFunc(func(e *core.TerminateEvent) error {
		if server != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			_ = server.Shutdown(ctx)
		}
		return e.Next()
	})
}
