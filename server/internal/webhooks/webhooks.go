package webhooks

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/pocketbase/dbx"
	validation "github.com/pocketbase/ozzo-validation/v4"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
	"golang.org/x/net/idna"

	"screenroom/server/internal/metrics"
)

// The webhook sender. Each event is recorded as webhook_deliveries rows, status pending (events.go), inside the
// write that caused it; this goroutine, started on serve, sends them outside any request: it picks the due rows,
// POSTs each payload to its endpoint signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature
// "v1,<base64 HMAC-SHA256 of id.timestamp.body>" keyed with the decoded bytes of the endpoint's whsec_ secret; for a
// while after a rotation a second "v1,..." made with the replaced secret, endpoint_routes.go), and records the HTTP
// status, latency and attempts on the row. A 2xx succeeds; a redirect fails at once (below); anything else is retried
// with exponential backoff (WEBHOOKS_RETRY_BASE_MS, doubling, at most 4 hours apart) until the row's giveUpAt (a day
// after the event), then the row is failed. Every attempt's outcome also counts towards the endpoint's health
// (endpoint_health.go): an endpoint that fails for too long is disabled and its company's owner told.
//
// SSRF (decisions.md: webhook targets must not be loopback, private or link-local, nor redirect to one): an
// endpoint's URL is checked when it is saved (webhookURLProblem, on the host as the sender will name it, in every
// spelling: IDNA full stops, IPv6 forms, embedded IPv4, numeric IPv4), and the dialer checks every address it is
// about to connect to, after DNS resolution, with the same rule (publicAddr), so a public name that resolves to
// 127.0.0.1, 10.x or 169.254.169.254 is refused before any byte is sent; redirects are not followed at all, so no
// redirect can lead anywhere: a 3xx fails the delivery at once with where it pointed (the same request gets the same
// answer, so a day of retries would change nothing); the environment's HTTP proxy is not used (the check is on the
// target, not on a proxy). A refused address fails the delivery at once: repeating it cannot succeed. Only
// WEBHOOKS_ALLOW_PRIVATE_TARGETS=1 (tests and development) lifts the address checks and allows http://.
//
// Settings (environment): WEBHOOKS_TIMEOUT_MS (10000: a whole attempt, connect to last byte), WEBHOOKS_RETRY_BASE_MS
// (30000: the first retry's delay), WEBHOOKS_POLL_MS (1000: how often the queue is read when nothing woke the
// sender; a new delivery wakes it at once), WEBHOOKS_DISABLE_AFTER_HOURS and WEBHOOKS_SECRET_OVERLAP_HOURS
// (endpoint_health.go, endpoint_routes.go).

const webhookConcurrency = 4

type webhookSender struct {
	app          core.App
	client       *http.Client
	allowPrivate bool
	timeout      time.Duration
	retryBase    time.Duration
	poll         time.Duration
	wake         chan struct{}
	slots        chan struct{}
	wg           sync.WaitGroup
	testing      sync.Map // endpoint id → a test event is being sent to it
}

func envDuration(name string, fallback time.Duration) time.Duration {
	if ms, err := strconv.Atoi(os.Getenv(name)); err == nil && ms > 0 {
		return time.Duration(ms) * time.Millisecond
	}
	return fallback
}

// refusedAddressError is the dialer's refusal of an address that is not public.
type refusedAddressError struct{ ip string }

func (e *refusedAddressError) Error() string {
	return fmt.Sprintf("the address %s is not public (loopback, private, link-local or reserved)", e.ip)
}

// ---- where a webhook may go (decisions.md: never loopback, private or link-local, nor a redirect to one) ----
//
// One rule, two places: publicAddr judges an address, both when an endpoint is saved (webhookURLProblem, on the host
// the sender's HTTP client will name) and in the dialer's Control (on the address actually dialled, after name
// resolution, so a public name that resolves to 127.0.0.1 is refused too).

func mustPrefixes(cidrs ...string) []netip.Prefix {
	prefixes := make([]netip.Prefix, len(cidrs))
	for i, cidr := range cidrs {
		prefixes[i] = netip.MustParsePrefix(cidr)
	}
	return prefixes
}

// nonPublic4 are the IPv4 ranges netip's predicates do not already cover: "this network", CGNAT, IETF protocol
// assignments, the documentation nets, the 6to4 relay anycast, benchmarking, reserved and broadcast.
var nonPublic4 = mustPrefixes("0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24",
	"198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4")

var (
	// only global unicast (2000::/3) reaches the Internet; everything outside it is loopback, unspecified,
	// IPv4-compatible (::/96, deprecated), NAT64 local-use (64:ff9b:1::/48), discard (100::/64), unique local,
	// link-local, site-local or multicast, except the well-known NAT64 prefix, judged by its IPv4 address
	globalUnicast6 = netip.MustParsePrefix("2000::/3")
	nat64          = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour      = netip.MustParsePrefix("2002::/16")
	// inside 2000::/3 but not public: IETF protocol assignments (Teredo 2001::/32 among them: the address it embeds
	// is obfuscated, and a relay decides where it goes), documentation
	nonPublic6 = mustPrefixes("2001::/23", "2001:db8::/32", "3fff::/20")
)

// publicAddr reports whether a webhook may connect to addr. An IPv4 address in IPv6 clothes (IPv4-mapped ::ffff:0:0/96,
// NAT64 64:ff9b::/96, 6to4 2002::/16) is judged as the IPv4 address it carries; a zoned address is link-local.
func publicAddr(addr netip.Addr) bool {
	if !addr.IsValid() || addr.Zone() != "" {
		return false
	}
	addr = addr.Unmap()
	if addr.Is6() {
		bytes := addr.As16()
		switch {
		case nat64.Contains(addr):
			return publicAddr(netip.AddrFrom4([4]byte(bytes[12:16])))
		case !globalUnicast6.Contains(addr):
			return false
		case sixToFour.Contains(addr):
			return publicAddr(netip.AddrFrom4([4]byte(bytes[2:6])))
		}
		for _, p := range nonPublic6 {
			if p.Contains(addr) {
				return false
			}
		}
		return true
	}
	if addr.IsLoopback() || addr.IsPrivate() || addr.IsLinkLocalUnicast() || addr.IsMulticast() || addr.IsUnspecified() {
		return false
	}
	for _, p := range nonPublic4 {
		if p.Contains(addr) {
			return false
		}
	}
	return true
}

// Names that never name a public host: loopback (RFC 6761), multicast DNS (.local), private use (.internal) and
// home networks (.home.arpa). Any other name is judged by the addresses it resolves to, when the sender connects.
var loopbackNames = []string{"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}
var nonPublicSuffixes = []string{".localhost", ".local", ".internal", ".home.arpa"}

// webhookHost is the host of a URL the way the sender's request names it, so that the save check judges what will
// be dialled: url.Parse's Hostname (brackets off, userinfo and port gone), mapped by IDNA (UTS #46, the Lookup profile
// net/http applies to a host that is not ASCII: ideographic and fullwidth full stops become dots, fullwidth and
// circled digits become digits), lower-case, without trailing dots. ok is false when the URL has no usable host.
func webhookHost(u *url.URL) (host string, ok bool) {
	host = u.Hostname()
	for i := 0; i < len(host); i++ {
		if host[i] >= utf8.RuneSelf {
			mapped, err := idna.Lookup.ToASCII(host)
			if err != nil {
				return "", false
			}
			host = mapped
			break
		}
	}
	host = strings.TrimRight(strings.ToLower(host), ".")
	return host, host != ""
}

// whatwgIPv4 reads a host the way browsers, curl and the C library read a host that ends in a number: one to four
// parts, each decimal, octal (leading 0) or hex (0x), the last filling the bytes that remain (2130706433, 0x7f.1,
// 0177.0.0.1 and 127.1 are all 127.0.0.1). numeric is false for a host whose last label is not a number (a name);
// ok is false for a numeric host that is no address (1.2.3.4.5, 256.1.1.1), which no client should be given.
func whatwgIPv4(host string) (addr netip.Addr, numeric bool, ok bool) {
	parts := strings.Split(host, ".")
	if _, isNumber := ipv4Number(parts[len(parts)-1]); !isNumber && !allDigits(parts[len(parts)-1]) {
		return netip.Addr{}, false, false
	}
	if len(parts) > 4 {
		return netip.Addr{}, true, false
	}
	var value uint64
	for i, part := range parts {
		n, isNumber := ipv4Number(part)
		if !isNumber {
			return netip.Addr{}, true, false
		}
		if i < len(parts)-1 {
			if n > 255 {
				return netip.Addr{}, true, false
			}
			value |= n << (8 * (3 - i))
			continue
		}
		if n >= 1<<(8*(5-len(parts))) {
			return netip.Addr{}, true, false
		}
		value |= n
	}
	return netip.AddrFrom4([4]byte{byte(value >> 24), byte(value >> 16), byte(value >> 8), byte(value)}), true, true
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ipv4Number is one part of a numeric host: 0x… hex (0x alone is 0), 0… octal, else decimal.
func ipv4Number(part string) (uint64, bool) {
	base := 10
	switch {
	case part == "":
		return 0, false
	case len(part) >= 2 && (part[:2] == "0x" || part[:2] == "0X"):
		part, base = part[2:], 16
		if part == "" {
			return 0, true
		}
	case len(part) >= 2 && part[0] == '0':
		part, base = part[1:], 8
	}
	n, err := strconv.ParseUint(part, base, 64)
	if err != nil || n > 0xffffffff {
		return 0, false
	}
	return n, true
}

// webhookTarget is what a host names: an address (IPv6 or IPv4, in any of the spellings above) or a name.
func webhookTarget(host string) (addr netip.Addr, name string, ok bool) {
	if a, err := netip.ParseAddr(host); err == nil {
		return a, "", true
	}
	if a, numeric, valid := whatwgIPv4(host); numeric {
		return a, "", valid
	}
	return netip.Addr{}, host, true
}

func isLoopbackName(name string) bool {
	return slices.Contains(loopbackNames, name) || strings.HasSuffix(name, ".localhost")
}

func isNonPublicName(name string) bool {
	if isLoopbackName(name) {
		return true
	}
	for _, suffix := range nonPublicSuffixes {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// The refusals of an endpoint's URL (the SPA knows these texts: src/lib/errors.ts).
const (
	webhookURLInvalid = "Enter a valid URL."
	webhookURLHTTPS   = "Use an https:// address."
	webhookURLPrivate = "This address is on a private network. Webhooks go to public addresses only."
)

// webhookURLProblem is the refusal of an endpoint's URL, or "" when it may be used: an https URL whose host is not
// a private target. allowPrivate (WEBHOOKS_ALLOW_PRIVATE_TARGETS=1, tests and development) lifts the address check
// and allows http:// to loopback.
func webhookURLProblem(raw string, allowPrivate bool) string {
	u, err := url.Parse(raw)
	if err != nil {
		return webhookURLInvalid
	}
	host, ok := webhookHost(u)
	if !ok {
		return webhookURLInvalid
	}
	addr, name, ok := webhookTarget(host)
	if !ok {
		return webhookURLInvalid
	}
	switch u.Scheme {
	case "https":
	case "http":
		if allowPrivate && ((addr.IsValid() && addr.Unmap().IsLoopback()) || isLoopbackName(name)) {
			return ""
		}
		return webhookURLHTTPS
	default:
		return webhookURLHTTPS
	}
	if allowPrivate {
		return ""
	}
	if (addr.IsValid() && !publicAddr(addr)) || (name != "" && isNonPublicName(name)) {
		return webhookURLPrivate
	}
	return ""
}

func newWebhookSender(app core.App) *webhookSender {
	s := &webhookSender{
		app:          app,
		allowPrivate: os.Getenv("WEBHOOKS_ALLOW_PRIVATE_TARGETS") == "1",
		timeout:      envDuration("WEBHOOKS_TIMEOUT_MS", 10*time.Second),
		retryBase:    envDuration("WEBHOOKS_RETRY_BASE_MS", 30*time.Second),
		poll:         envDuration("WEBHOOKS_POLL_MS", time.Second),
		wake:         make(chan struct{}, 1),
		slots:        make(chan struct{}, webhookConcurrency),
	}
	dialer := &net.Dialer{
		Timeout: s.timeout,
		// called for each address the dialer is about to connect to, after name resolution
		Control: func(network, address string, _ syscall.RawConn) error {
			if s.allowPrivate {
				return nil
			}
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return err
			}
			if addr, err := netip.ParseAddr(host); err != nil || !publicAddr(addr) {
				return &refusedAddressError{ip: host}
			}
			return nil
		},
	}
	s.client = &http.Client{
		Timeout: s.timeout,
		Transport: &http.Transport{
			Proxy:                 nil,
			DialContext:           dialer.DialContext,
			ForceAttemptHTTP2:     true,
			TLSHandshakeTimeout:   s.timeout,
			ResponseHeaderTimeout: s.timeout,
			MaxIdleConnsPerHost:   2,
			IdleConnTimeout:       90 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return s
}

// registerWebhooks starts the sender with the server and stops it with the app; a delivery recorded (committed)
// wakes it.
func registerWebhooks(app core.App, s *webhookSender) {
	ctx, cancel := context.WithCancel(context.Background())
	app.OnServe().BindFunc(func(e *core.ServeEvent) error {
		go s.run(ctx)
		return e.Next()
	})
	app.OnTerminate().BindFunc(func(e *core.TerminateEvent) error {
		cancel()
		return e.Next()
	})
	app.OnModelAfterCreateSuccess("webhook_deliveries").BindFunc(func(e *core.ModelEvent) error {
		s.poke()
		return e.Next()
	})
	// every write of an endpoint, whoever makes it (the records API, a batch, a superuser's tools): a URL the sender
	// may use, and at least one event
	app.OnRecordValidate("webhook_endpoints").BindFunc(func(e *core.RecordEvent) error {
		if problem := webhookURLProblem(e.Record.GetString("url"), s.allowPrivate); problem != "" {
			return router.NewBadRequestError(problem, validation.Errors{"url": validation.NewError("validation_invalid_url", problem)})
		}
		if len(e.Record.GetStringSlice("events")) == 0 {
			const message = "Choose at least one event."
			return router.NewBadRequestError(message, validation.Errors{"events": validation.NewError("validation_required", message)})
		}
		return e.Next()
	})
}

func (s *webhookSender) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func dbText(t time.Time) string {
	return t.UTC().Format("2006-01-02 15:04:05.000Z")
}

func (s *webhookSender) run(ctx context.Context) {
	for {
		s.sendDue(ctx)
		select {
		case <-ctx.Done():
			s.wg.Wait()
			return
		case <-s.wake:
		case <-time.After(s.poll):
		}
	}
}

type dueDelivery struct {
	Id            string `db:"id"`
	NextAttemptAt string `db:"nextAttemptAt"`
}

// sendDue claims the due deliveries (a lease: nextAttemptAt moves past the attempt's longest time, so a crash mid-send
// leaves the row to be tried again once the lease is over) and sends each in a slot of its own.
func (s *webhookSender) sendDue(ctx context.Context) {
	var due []dueDelivery
	err := s.app.DB().NewQuery(
		`SELECT id, nextAttemptAt FROM webhook_deliveries WHERE status = 'pending' AND nextAttemptAt <= {:now}
		 ORDER BY nextAttemptAt LIMIT 50`,
	).Bind(dbx.Params{"now": dbText(time.Now())}).All(&due)
	if err != nil {
		if !strings.Contains(err.Error(), "no such table") {
			s.app.Logger().Error("webhooks: reading the queue failed", "error", err.Error())
		}
		return
	}
	for _, d := range due {
		lease := dbText(time.Now().Add(s.timeout + time.Minute))
		res, err := s.app.NonconcurrentDB().NewQuery(
			`UPDATE webhook_deliveries SET nextAttemptAt = {:lease}
			 WHERE id = {:id} AND status = 'pending' AND nextAttemptAt = {:at}`,
		).Bind(dbx.Params{"lease": lease, "id": d.Id, "at": d.NextAttemptAt}).Execute()
		if err != nil {
			s.app.Logger().Error("webhooks: claiming a delivery failed", "delivery", d.Id, "error", err.Error())
			continue
		}
		if n, _ := res.RowsAffected(); n != 1 {
			continue
		}
		select {
		case s.slots <- struct{}{}:
		case <-ctx.Done():
			return
		}
		s.wg.Add(1)
		go func(id string) {
			defer func() { <-s.slots; s.wg.Done() }()
			s.attempt(ctx, id)
		}(d.Id)
	}
}

type deliveryRow struct {
	Id            string `db:"id"`
	Event         string `db:"event"`
	Payload       string `db:"payload"`
	Attempts      int    `db:"attempts"`
	GiveUpAt      string `db:"giveUpAt"`
	Endpoint      string `db:"endpoint"`
	URL           string `db:"url"`
	Secret        string `db:"secret"`
	PrevSecret    string `db:"previousSecret"`
	PrevSecretEnd string `db:"previousSecretUntil"`
	Enabled       bool   `db:"enabled"`
}

// outcome is what one attempt leaves on its row.
type outcome struct {
	status    int
	latencyMs int64
	err       string
	final     bool // no retry can succeed
	skipped   bool // not sent at all (the endpoint is disabled): says nothing about the endpoint's health
}

// readDelivery is a delivery with what its endpoint holds now (its URL, secrets, whether it is enabled).
func readDelivery(app core.App, id string) (deliveryRow, error) {
	var row deliveryRow
	err := app.DB().NewQuery(
		`SELECT d.id AS id, d.event AS event, d.payload AS payload, d.attempts AS attempts, d.giveUpAt AS giveUpAt,
		        e.id AS endpoint, e.url AS url, e.secret AS secret, e.previousSecret AS previousSecret,
		        e.previousSecretUntil AS previousSecretUntil, e.enabled AS enabled
		 FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint WHERE d.id = {:id}`,
	).Bind(dbx.Params{"id": id}).One(&row)
	return row, err
}

func (s *webhookSender) attempt(ctx context.Context, id string) {
	row, err := readDelivery(s.app, id)
	if err != nil {
		return // deleted meanwhile (its endpoint or candidate went)
	}
	var o outcome
	if !row.Enabled {
		o = outcome{err: "The endpoint is disabled.", final: true, skipped: true}
	} else {
		o = s.post(ctx, row)
	}
	// the endpoint's health first, so whoever sees the attempt on its row sees what it did to the endpoint too
	s.noteHealth(row, o)
	s.record(row, o)
}

// post sends one attempt and says how it went.
func (s *webhookSender) post(ctx context.Context, row deliveryRow) outcome {
	target, err := url.Parse(row.URL)
	if err != nil || (target.Scheme != "https" && !(target.Scheme == "http" && s.allowPrivate)) {
		return outcome{err: "Refused: webhooks are sent to https:// addresses only.", final: true}
	}
	key, err := decodeSecret(row.Secret)
	if err != nil {
		return outcome{err: "The endpoint's secret cannot be read.", final: true}
	}
	body := []byte(row.Payload)
	timestamp := strconv.FormatInt(time.Now().Unix(), 10)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, row.URL, bytes.NewReader(body))
	if err != nil {
		return outcome{err: "The endpoint's URL cannot be used.", final: true}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Screenroom-Webhooks/1")
	req.Header.Set("webhook-id", row.Id)
	req.Header.Set("webhook-timestamp", timestamp)
	req.Header.Set("webhook-signature", s.signatures(key, row, timestamp, body))

	started := time.Now()
	res, err := s.client.Do(req)
	latency := time.Since(started).Milliseconds()
	if err != nil {
		var refused *refusedAddressError
		if errors.As(err, &refused) {
			return outcome{latencyMs: latency, err: "Refused: " + refused.Error() + ". Webhooks go to public addresses only.", final: true}
		}
		if errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "Client.Timeout") {
			return outcome{latencyMs: latency, err: fmt.Sprintf("No answer within %d seconds.", int(s.timeout.Seconds()))}
		}
		return outcome{latencyMs: latency, err: "Could not connect: " + trimError(err)}
	}
	// read a little of the body so the connection can be reused, never much
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64*1024))
	res.Body.Close()
	switch {
	case res.StatusCode >= 200 && res.StatusCode < 300:
		return outcome{status: res.StatusCode, latencyMs: latency}
	case res.StatusCode >= 300 && res.StatusCode < 400:
		// final: the same request gets the same redirect, so retrying it for a day only piles attempts up
		return outcome{status: res.StatusCode, latencyMs: latency, err: redirectError(res), final: true}
	default:
		return outcome{status: res.StatusCode, latencyMs: latency, err: fmt.Sprintf("The endpoint answered %d.", res.StatusCode)}
	}
}

func trimError(err error) string {
	msg := err.Error()
	if len(msg) > 300 {
		msg = msg[:300]
	}
	return msg
}

// redirectError says that the endpoint redirected, where to (so the manager can fix the URL), and that the delivery
// stops there.
func redirectError(res *http.Response) string {
	where := ""
	if location := printable(res.Header.Get("Location"), 300); location != "" {
		if target, err := res.Request.URL.Parse(location); err == nil {
			location = target.String()
		}
		where = " to " + location
	}
	return fmt.Sprintf("The endpoint answered %d, a redirect%s. Redirects are not followed, so this delivery is not retried: set the endpoint's URL to the address it redirects to.", res.StatusCode, where)
}

// printable is text cut to at most max bytes (at a character boundary), with control characters dropped: a header
// of the receiver's is shown on the manager's screen.
func printable(text string, max int) string {
	text = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || !utf8.ValidRune(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(text, ""))
	if len(text) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + "…"
	}
	return strings.TrimSpace(text)
}

// decodeSecret is the key of a "whsec_<base64>" secret: its decoded bytes.
func decodeSecret(secret string) ([]byte, error) {
	raw := strings.TrimPrefix(secret, "whsec_")
	if key, err := base64.StdEncoding.DecodeString(raw); err == nil && len(key) > 0 {
		return key, nil
	}
	key, err := base64.RawStdEncoding.DecodeString(raw)
	if err == nil && len(key) == 0 {
		err = errors.New("empty secret")
	}
	return key, err
}

// signWebhook is the Standard Webhooks signature: base64 of HMAC-SHA256(key, "{id}.{timestamp}.{body}").
func signWebhook(key []byte, id, timestamp string, body []byte) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + timestamp + "."))
	mac.Write(body)
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// backoff is the wait after the attempt numbered `attempts` (1 for the first): base, 2×base, 4×base, ... at most 4 hours.
func (s *webhookSender) backoff(attempts int) time.Duration {
	wait := s.retryBase
	for i := 1; i < attempts && wait < 4*time.Hour; i++ {
		wait *= 2
	}
	if wait > 4*time.Hour {
		wait = 4 * time.Hour
	}
	return wait
}

// record writes an attempt's outcome on its row, unless the row was put back in the queue ('send again') meanwhile.
func (s *webhookSender) record(row deliveryRow, o outcome) {
	now := time.Now()
	attempts := row.Attempts + 1
	params := dbx.Params{
		"id": row.Id, "attempts": attempts, "lastStatus": o.status, "latency": o.latencyMs,
		"error": o.err, "now": dbText(now), "delivered": "", "next": "", "status": "", "before": row.Attempts,
	}
	if o.err == "" {
		params["status"] = "succeeded"
		params["delivered"] = dbText(now)
	} else {
		next := now.Add(s.backoff(attempts))
		giveUp, err := time.Parse("2006-01-02 15:04:05.000Z", row.GiveUpAt)
		if o.final || (err == nil && next.After(giveUp)) {
			params["status"] = "failed"
		} else {
			params["status"] = "pending"
			params["next"] = dbText(next)
		}
	}
	metrics.WebhookAttempt(o.err == "", params["status"] == "failed")
	_, err := s.app.NonconcurrentDB().NewQuery(
		`UPDATE webhook_deliveries SET status = {:status}, attempts = {:attempts}, lastStatus = {:lastStatus},
		   latencyMs = {:latency}, lastError = {:error}, deliveredAt = {:delivered}, nextAttemptAt = {:next}, updated = {:now}
		 WHERE id = {:id} AND status = 'pending' AND attempts = {:before}`,
	).Bind(params).Execute()
	if err != nil {
		s.app.Logger().Error("webhooks: recording an attempt failed", "delivery", row.Id, "error", err.Error())
	}
}
