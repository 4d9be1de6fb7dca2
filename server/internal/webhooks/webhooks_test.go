package webhooks

import (
	"context"
	"errors"
	"net/http"
	"net/netip"
	"strconv"
	"testing"
)

// The SSRF predicate of the webhook sender's dialer and of the save check (webhooks.go):
// `go test -run 'TestPublicAddr|TestWebhookURLProblem' .` in pocketbase/.
func TestPublicAddr(t *testing.T) {
	refused := []string{
		"127.0.0.1", "127.8.9.10", "::1", "0.0.0.0", "::", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1",
		"169.254.169.254", "fe80::1", "fe80::1%eth0", "fd00::1", "fc00::5", "fec0::1", "100.64.0.1", "198.18.0.1",
		"224.0.0.1", "ff02::1", "255.255.255.255", "240.0.0.1", "192.0.0.8", "192.0.2.1", "198.51.100.7", "203.0.113.9",
		"192.88.99.1",
		// IPv4-mapped, IPv4-compatible (::/96), NAT64 (well-known and local-use), 6to4 and Teredo forms
		"::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:7f00:1", "::127.0.0.1", "::7f00:1", "::10.0.0.1", "::8.8.8.8",
		"64:ff9b::a00:1", "64:ff9b::7f00:1", "64:ff9b::127.0.0.1", "64:ff9b:1::7f00:1", "64:ff9b:1::5db8:d822",
		"2002:7f00:1::", "2002:a00:1::1", "2002:a9fe:a9fe::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001::1",
		"2001:db8::1", "3fff::1", "100::1",
	}
	for _, address := range refused {
		if publicAddr(netip.MustParseAddr(address)) {
			t.Errorf("%s is accepted, want refused", address)
		}
	}
	if publicAddr(netip.Addr{}) {
		t.Error("the zero address is accepted, want refused")
	}
	accepted := []string{
		"93.184.216.34", "1.1.1.1", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111",
		"2001:4860:4860::8888", "2a00:1450:4001:82b::200e", "64:ff9b::5db8:d822", "::ffff:93.184.216.34", "2002:5db8:d822::1",
	}
	for _, address := range accepted {
		if !publicAddr(netip.MustParseAddr(address)) {
			t.Errorf("%s is refused, want accepted", address)
		}
	}
}

// The save check, on the host the sender's request names: every spelling of a non-public target is refused.
func TestWebhookURLProblem(t *testing.T) {
	private := []string{
		// the round-three findings
		"https://[0:0:0:0:0:0:0:1]/", "https://127\u30020\u30020\u30021/", "https://[64:ff9b::7f00:1]/", "https://[::127.0.0.1]/",
		// other full stops IDNA maps to dots (fullwidth, halfwidth ideographic), fullwidth and circled digits
		"https://127\uff0e0\uff0e0\uff0e1/", "https://127\uff610\uff610\uff611/", "https://\uff11\uff12\uff17.0.0.1/",
		"https://\u2460\u2461\u2466.0.0.1/", "https://\u24db\u24de\u24d2\u24d0\u24db\u24d7\u24de\u24e2\u24e3/",
		// IPv6 spellings
		"https://[::1]/", "https://[0000:0000:0000:0000:0000:0000:0000:0001]/", "https://[::]/", "https://[::ffff:127.0.0.1]/",
		"https://[::ffff:7f00:1]/", "https://[::ffff:a9fe:a9fe]/", "https://[::7f00:1]/", "https://[::169.254.169.254]/",
		"https://[64:ff9b::127.0.0.1]/", "https://[64:ff9b:1::a00:1]/", "https://[2002:7f00:1::1]/",
		"https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "https://[fe80::1%25eth0]/", "https://[FD00::1]/",
		// IPv4 spellings: decimal, octal, hex, short forms, trailing dots
		"https://2130706433/", "https://0x7f.1/", "https://0x7F000001/", "https://0177.0.0.1/", "https://017700000001/",
		"https://127.1/", "https://127.0.1/", "https://0/", "https://0x0/", "https://127.0.0.1./", "https://127.0.0.1../",
		"https://169.254.169.254/", "https://0xa9.0xfe.0xa9.0xfe/", "https://10.1.2.3:8443/x", "https://192.168.0.1/",
		"https://user:pass@127.0.0.1/",
		// names that never name a public host
		"https://localhost/", "https://LOCALHOST./", "https://api.localhost/", "https://ip6-localhost/",
		"https://printer.local/", "https://metadata.google.internal/", "https://nas.home.arpa/",
	}
	for _, raw := range private {
		raw = unquote(t, raw)
		if got := webhookURLProblem(raw, false); got != webhookURLPrivate {
			t.Errorf("%q: %q, want %q", raw, got, webhookURLPrivate)
		}
	}
	invalid := []string{"", "not a url", "https://", "https:///x", "https://1.2.3.4.5/", "https://256.0.0.1/", "https://08/",
		"https://example.123/", "https://[::1/", "https://127%2E0.0.1/", "https://[\uff1a\uff1a1]/"}
	for _, raw := range invalid {
		raw = unquote(t, raw)
		if got := webhookURLProblem(raw, false); got != webhookURLInvalid {
			t.Errorf("%q: %q, want %q", raw, got, webhookURLInvalid)
		}
	}
	for _, raw := range []string{"http://example.com/hook", "ftp://example.com/hook", "javascript://example.com/"} {
		if got := webhookURLProblem(raw, false); got != webhookURLHTTPS {
			t.Errorf("%q: %q, want %q", raw, got, webhookURLHTTPS)
		}
	}
	public := []string{
		"https://example.com/hook", "https://hooks.example.com:8443/in?x=1", "https://93.184.216.34/",
		"https://[2606:4700:4700::1111]/", "https://[64:ff9b::5db8:d822]/", "https://[::ffff:93.184.216.34]/",
		"https://b\u00fccher.example/", "https://hooks.invalid/in", "https://0x5d.0xb8.0xd8.0x22/", "https://1572395042/",
		"https://my_host.example.com/",
	}
	for _, raw := range public {
		raw = unquote(t, raw)
		if got := webhookURLProblem(raw, false); got != "" {
			t.Errorf("%q: %q, want accepted", raw, got)
		}
	}
	// the setting for tests: private https targets, and http:// to loopback only
	for _, raw := range []string{"https://127.0.0.1:4000/", "https://[::127.0.0.1]/", "http://127.0.0.1:4000/hook", "http://localhost/", "http://[::1]/"} {
		if got := webhookURLProblem(raw, true); got != "" {
			t.Errorf("allowed: %q: %q, want accepted", raw, got)
		}
	}
	for _, raw := range []string{"http://example.com/", "http://10.0.0.1/"} {
		if got := webhookURLProblem(raw, true); got != webhookURLHTTPS {
			t.Errorf("allowed: %q: %q, want %q", raw, got, webhookURLHTTPS)
		}
	}
}

// unquote reads a Go-escaped table entry (\uXXXX), so the table says which code points it holds.
func unquote(t *testing.T, s string) string {
	t.Helper()
	out, err := strconv.Unquote(`"` + s + `"`)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return out
}

// The dialer refuses by the address it is about to connect to, every non-public form included (no connection is
// made: the listener's address would not even route for ::127.0.0.1).
func TestDialerRefusesNonPublicAddresses(t *testing.T) {
	s := newWebhookSender(nil)
	transport := s.client.Transport.(*http.Transport)
	for _, address := range []string{"127.0.0.1:9", "[::1]:9", "[::127.0.0.1]:9", "[::ffff:127.0.0.1]:9", "[64:ff9b::7f00:1]:9", "[2002:7f00:1::1]:9", "localhost:9"} {
		conn, err := transport.DialContext(context.Background(), "tcp", address)
		if conn != nil {
			conn.Close()
		}
		var refused *refusedAddressError
		if !errors.As(err, &refused) {
			t.Errorf("%s: %v, want refused as not public", address, err)
		}
	}
}

// The signature against the Standard Webhooks specification's own example (standard-webhooks/libraries' test vector).
func TestSignWebhook(t *testing.T) {
	key, err := decodeSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	if err != nil {
		t.Fatal(err)
	}
	got := signWebhook(key, "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", []byte(`{"test": 2432232314}`))
	if want := "g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Errorf("signature %s, want %s", got, want)
	}
}
