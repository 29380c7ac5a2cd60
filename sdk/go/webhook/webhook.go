// Package webhook verifies the deliveries of the svc-assistant API's webhook endpoints and decodes their
// events, as the TypeScript SDK's constructEvent and the Python SDK's construct_event do.
//
// A delivery's Svc-Signature header is `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`,
// with one v1 per active secret while a rotation overlaps. It verifies when one v1 matches under one of
// the secrets and t is within the tolerance (300 s, Stripe's) of now, which stops replays.
//
//	event, err := webhook.ConstructEvent(body, r.Header.Get("Svc-Signature"), secret)
//	switch e := event.Object.(type) {
//	case *svc.CallEvent:
//		fmt.Println(e.Type, e.Data.Object.Id)
//	default: // an event type newer than this SDK: event.Type and event.Data (raw JSON)
//	}
package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	svc "github.com/svc-assistant/sdk-go"
)

// DefaultTolerance is how far (either way) a signature's timestamp may be from now.
const DefaultTolerance = 300 * time.Second

// Event is a verified delivery's event: the fields every event has, its raw JSON, and Object, the event
// decoded into the generated type its `type` names (*svc.CallEvent for call.*, *svc.MessageEvent for
// message.*, …), or nil for a type this SDK version does not know (not an error: read Type and Data).
type Event struct {
	ID         string          `json:"id"`
	Type       string          `json:"type"`
	Created    int64           `json:"created"`
	Livemode   bool            `json:"livemode"`
	APIVersion string          `json:"api_version"`
	Data       json.RawMessage `json:"data"`
	Raw        json.RawMessage `json:"-"`
	Object     any             `json:"-"`
}

// SignatureError is a delivery that does not verify: no or a malformed header, a timestamp outside the
// tolerance, or no signature matching the payload under the secrets.
type SignatureError struct{ Reason string }

func (e *SignatureError) Error() string { return "webhook: " + e.Reason }

// ConstructEvent verifies a delivery and returns its event: payload is the raw body exactly as received
// (decode only after), header the Svc-Signature header, secrets the endpoint's signing secret (or several,
// while a rotation overlaps). The tolerance is DefaultTolerance; see ConstructEventWithTolerance.
func ConstructEvent(payload []byte, header string, secrets ...string) (*Event, error) {
	return ConstructEventWithTolerance(payload, header, DefaultTolerance, secrets...)
}

// ConstructEventWithTolerance is ConstructEvent with another tolerance (0: none, e.g. for stored payloads).
func ConstructEventWithTolerance(payload []byte, header string, tolerance time.Duration, secrets ...string) (*Event, error) {
	if err := Verify(payload, header, tolerance, secrets...); err != nil {
		return nil, err
	}
	event := &Event{Raw: json.RawMessage(payload)}
	if err := json.Unmarshal(payload, event); err != nil {
		return nil, fmt.Errorf("webhook: the payload is not an event: %w", err)
	}
	if obj := svc.NewEventObject(event.Type); obj != nil {
		if err := json.Unmarshal(payload, obj); err != nil {
			return nil, fmt.Errorf("webhook: decoding the %s event: %w", event.Type, err)
		}
		event.Object = obj
	}
	return event, nil
}

// Verify checks a delivery's Svc-Signature header (see the package documentation) without decoding it.
func Verify(payload []byte, header string, tolerance time.Duration, secrets ...string) error {
	if header == "" {
		return &SignatureError{"no Svc-Signature header"}
	}
	var t int64 = -1
	var signatures [][]byte
	for _, part := range strings.Split(header, ",") {
		key, value, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch key {
		case "t":
			if n, err := strconv.ParseInt(value, 10, 64); err == nil && t < 0 {
				t = n
			}
		case "v1":
			if sig, err := hex.DecodeString(value); err == nil && len(sig) == sha256.Size {
				signatures = append(signatures, sig)
			}
		}
	}
	if t < 0 {
		return &SignatureError{"the Svc-Signature header has no timestamp"}
	}
	if tolerance > 0 && time.Since(time.Unix(t, 0)).Abs() > tolerance {
		return &SignatureError{"the Svc-Signature timestamp is outside the tolerance"}
	}
	for _, secret := range secrets {
		expected := sign(payload, secret, t)
		for _, sig := range signatures {
			if hmac.Equal(sig, expected) {
				return nil
			}
		}
	}
	return &SignatureError{"no signature matches the payload and secret"}
}

// SignatureHeader is a Svc-Signature header for payload under secret at time t: for your tests.
func SignatureHeader(payload []byte, secret string, t time.Time) string {
	return fmt.Sprintf("t=%d,v1=%s", t.Unix(), hex.EncodeToString(sign(payload, secret, t.Unix())))
}

// sign is HMAC-SHA256(secret, "<t>.<payload>").
func sign(payload []byte, secret string, t int64) []byte {
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "%d.", t)
	mac.Write(payload)
	return mac.Sum(nil)
}
