package main

import (
	"net"
	"testing"
)

// The SSRF predicate of the webhook sender's dialer (webhooks.go): `go test -run TestPublicIP .` in pocketbase/.
func TestPublicIP(t *testing.T) {
	refused := []string{
		"127.0.0.1", "127.8.9.10", "::1", "0.0.0.0", "::", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1",
		"169.254.169.254", "fe80::1", "fd00::1", "fc00::5", "100.64.0.1", "198.18.0.1", "224.0.0.1", "ff02::1",
		"255.255.255.255", "240.0.0.1", "192.0.0.8", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::a00:1", "64:ff9b::7f00:1",
	}
	for _, address := range refused {
		if publicIP(net.ParseIP(address)) {
			t.Errorf("%s is accepted, want refused", address)
		}
	}
	accepted := []string{"93.184.216.34", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "64:ff9b::5db8:d822"}
	for _, address := range accepted {
		if !publicIP(net.ParseIP(address)) {
			t.Errorf("%s is refused, want accepted", address)
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
