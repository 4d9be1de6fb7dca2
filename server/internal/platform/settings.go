package platform

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/pocketbase/pocketbase/core"
)

// Settings from the environment: APP_URL, SMTP_*, the sender (MAIL_FROM, MAIL_FROM_NAME), the proxy header, backups
// (BACKUPS_CRON, BACKUPS_MAX_KEEP), object storage (S3_*) and the rate limits (RATE_LIMITS, RATE_LIMIT_*) win over
// the stored settings, so links in e-mails and the mail server follow the process that runs the server (dev, tests,
// production). A variable that is unset or empty leaves the stored value (what the dashboard saved) as it is.
//
// Applied whenever the settings are (re)loaded, not only on bootstrap: `serve` runs pending migrations after
// bootstrap, and on a first start the settings migration (1732000001_settings.js) saves SMTP TLS as false; a save
// from the dashboard cannot undo a variable either. Saving here reloads once more and then finds nothing to change.
func registerSettings(app core.App) {
	app.OnSettingsReload().BindFunc(func(e *core.SettingsReloadEvent) error {
		if err := e.Next(); err != nil {
			return err
		}
		settings := e.App.Settings()
		changed, err := applyEnvSettings(e.App, settings)
		if err != nil || !changed {
			return err
		}
		return e.App.Save(settings)
	})
}

// envInt reads a whole number as JavaScript's parseInt did for these variables: leading digits count, anything
// else (unset, empty, not a number) is 0.
func envInt(name string) int {
	text := strings.TrimLeft(os.Getenv(name), " \t\n\r")
	end := 0
	if end < len(text) && (text[end] == '+' || text[end] == '-') {
		end++
	}
	for end < len(text) && text[end] >= '0' && text[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(text[:end])
	if err != nil {
		return 0
	}
	return n
}

// setIfChanged sets *field to value and reports whether that changed it.
func setIfChanged[T comparable](field *T, value T) bool {
	if *field == value {
		return false
	}
	*field = value
	return true
}

func applyEnvSettings(app core.App, settings *core.Settings) (bool, error) {
	changed := false
	if appURL := os.Getenv("APP_URL"); appURL != "" {
		changed = setIfChanged(&settings.Meta.AppURL, appURL) || changed
	}
	if host := os.Getenv("SMTP_HOST"); host != "" {
		changed = setIfChanged(&settings.SMTP.Host, host) || changed
	}
	if port := envInt("SMTP_PORT"); port != 0 {
		changed = setIfChanged(&settings.SMTP.Port, port) || changed
	}
	// a production mail server wants credentials and TLS; the password is never echoed by the settings API
	if username := os.Getenv("SMTP_USERNAME"); username != "" {
		changed = setIfChanged(&settings.SMTP.Username, username) || changed
	}
	if password := os.Getenv("SMTP_PASSWORD"); password != "" {
		changed = setIfChanged(&settings.SMTP.Password, password) || changed
	}
	// true: TLS from the first byte (port 465); false: plain, upgraded with STARTTLS when the server offers it
	switch tls := strings.ToLower(strings.TrimSpace(os.Getenv("SMTP_TLS"))); tls {
	case "":
	case "true", "false":
		changed = setIfChanged(&settings.SMTP.TLS, tls == "true") || changed
	default:
		app.Logger().Warn("settings: SMTP_TLS must be true or false; the stored value is kept", "SMTP_TLS", tls)
	}

	// With S3_BUCKET set, uploaded files (answers' videos, logos) go to that bucket through PocketBase's S3 filesystem
	// instead of pb_data/storage. The database and the staged parts of takes stay on local disk (README "Storage").
	// Unset: the stored settings (local storage unless the dashboard turned S3 on) are kept.
	if bucket := os.Getenv("S3_BUCKET"); bucket != "" {
		// a server meant to store on S3 does not start storing on local disk instead: it refuses to start, saying why
		var missing []string
		for _, name := range []string{"S3_ENDPOINT", "S3_ACCESS_KEY", "S3_SECRET"} {
			if os.Getenv(name) == "" {
				missing = append(missing, name)
			}
		}
		if len(missing) > 0 {
			verb := "is"
			if len(missing) > 1 {
				verb = "are"
			}
			//lint:ignore ST1005 the server's refusal to start, read by the operator as a sentence
			return false, fmt.Errorf("S3_BUCKET is set, but %s %s not: set them too, or unset S3_BUCKET to store files on local disk.", strings.Join(missing, ", "), verb)
		}
		region := os.Getenv("S3_REGION")
		if region == "" {
			region = "us-east-1"
		}
		pathStyle := os.Getenv("S3_FORCE_PATH_STYLE")
		if pathStyle == "" {
			pathStyle = "true"
		}
		wanted := core.S3Config{
			Enabled:   true,
			Bucket:    bucket,
			Region:    region,
			Endpoint:  os.Getenv("S3_ENDPOINT"),
			AccessKey: os.Getenv("S3_ACCESS_KEY"),
			Secret:    os.Getenv("S3_SECRET"),
			// most servers other than AWS (MinIO, versitygw, Garage) want path-style URLs: on unless "false"
			ForcePathStyle: strings.ToLower(strings.TrimSpace(pathStyle)) != "false",
		}
		changed = setIfChanged(&settings.S3, wanted) || changed
	}

	// the sender of every e-mail: the settings migration only read MAIL_FROM on the very first start
	if from := strings.TrimSpace(os.Getenv("MAIL_FROM")); from != "" {
		changed = setIfChanged(&settings.Meta.SenderAddress, from) || changed
	}
	if name := strings.TrimSpace(os.Getenv("MAIL_FROM_NAME")); name != "" {
		changed = setIfChanged(&settings.Meta.SenderName, name) || changed
	}

	// Behind a reverse proxy every request comes from the proxy's address: the rate limits would count all clients as
	// one. TRUSTED_PROXY_HEADERS names the header the proxy sets (deploy/nginx: X-Real-IP); only set it when
	// PocketBase listens on loopback behind that proxy, or a client could send the header itself.
	var proxyHeaders []string
	for _, name := range strings.Split(os.Getenv("TRUSTED_PROXY_HEADERS"), ",") {
		if name = strings.TrimSpace(name); name != "" {
			proxyHeaders = append(proxyHeaders, name)
		}
	}
	if len(proxyHeaders) > 0 && !slices.Equal(settings.TrustedProxy.Headers, proxyHeaders) {
		settings.TrustedProxy.Headers = proxyHeaders
		changed = true
	}

	// Backups: PocketBase's own zip of pb_data (database and local files) on a cron, the oldest removed beyond
	// BACKUPS_MAX_KEEP. "off" turns the cron off; unset leaves what the dashboard saved.
	if cron := strings.TrimSpace(os.Getenv("BACKUPS_CRON")); cron != "" {
		if strings.ToLower(cron) == "off" {
			cron = ""
		}
		changed = setIfChanged(&settings.Backups.Cron, cron) || changed
	}
	if keep := envInt("BACKUPS_MAX_KEEP"); keep > 0 {
		changed = setIfChanged(&settings.Backups.CronMaxKeep, keep) || changed
	}

	// per-client rate limits (throttle.go): rules from the environment, on unless RATE_LIMITS=off
	rules := RateLimitRules(app)
	enabled := RateLimitsEnabled()
	if settings.RateLimits.Enabled != enabled || !slices.Equal(settings.RateLimits.Rules, rules) {
		settings.RateLimits.Enabled = enabled
		settings.RateLimits.Rules = rules
		changed = true
	}
	return changed, nil
}
