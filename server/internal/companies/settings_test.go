package companies

import (
	"testing"
	// the server's zones are the compiled-in ones (the main imports it too), whatever this machine has installed
	_ "time/tzdata"
)

func TestKnownTimeZone(t *testing.T) {
	for _, name := range []string{"", "UTC", "Europe/Berlin", "America/Argentina/Buenos_Aires", "Asia/Kolkata", "Asia/Calcutta", "Pacific/Chatham", "Etc/GMT+5", "America/Sao_Paulo"} {
		if !knownTimeZone(name) {
			t.Errorf("knownTimeZone(%q) = false, want true", name)
		}
	}
	for _, name := range []string{"Local", "Mars/Olympus_Mons", "Europe/Berlin ", " UTC", "../../etc/passwd", "/etc/localtime", "Europe/", "Europe/Berlin\n", "europe/berlin"} {
		if knownTimeZone(name) {
			t.Errorf("knownTimeZone(%q) = true, want false", name)
		}
	}
}
