package webhook

import (
	"errors"
	"strings"
	"testing"
	"time"

	svc "github.com/svc-assistant/sdk-go"
)

const payload = `{"id":"evt_1","object":"event","type":"call.ended","created":1700000000,"livemode":false,"api_version":"2026-10-04","data":{"object":{"id":"call_1","object":"call","status":"completed"}}}`

func TestConstructEventTypesTheEvent(t *testing.T) {
	header := SignatureHeader([]byte(payload), "whsec_a", time.Now())
	event, err := ConstructEvent([]byte(payload), header, "whsec_a")
	if err != nil {
		t.Fatal(err)
	}
	call, ok := event.Object.(*svc.CallEvent)
	if !ok || event.Type != "call.ended" || event.ID != "evt_1" || call.Data.Object.Id != "call_1" {
		t.Fatalf("got %+v (%T)", event, event.Object)
	}
}

func TestUnknownTypeIsAGenericEvent(t *testing.T) {
	body := strings.Replace(payload, "call.ended", "galaxy.exploded", 1)
	event, err := ConstructEvent([]byte(body), SignatureHeader([]byte(body), "whsec_a", time.Now()), "whsec_a")
	if err != nil || event.Object != nil || event.Type != "galaxy.exploded" || !strings.Contains(string(event.Data), "call_1") {
		t.Fatalf("got %+v, %v", event, err)
	}
}

func TestRotationAndRefusals(t *testing.T) {
	now := time.Now()
	old := SignatureHeader([]byte(payload), "whsec_old", now)
	both := old + ",v1=" + strings.Split(SignatureHeader([]byte(payload), "whsec_new", now), "v1=")[1]
	if _, err := ConstructEvent([]byte(payload), both, "whsec_new"); err != nil {
		t.Fatalf("a header signed with the old and the new secret: %v", err)
	}
	if _, err := ConstructEvent([]byte(payload), old, "whsec_new", "whsec_old"); err != nil {
		t.Fatalf("a list of secrets: %v", err)
	}
	cases := map[string]string{
		"forged":   SignatureHeader([]byte(payload), "whsec_other", now),
		"stale":    SignatureHeader([]byte(payload), "whsec_old", now.Add(-6*time.Minute)),
		"empty":    "",
		"no t":     "v1=" + strings.Repeat("0", 64),
		"tampered": old,
	}
	for name, header := range cases {
		body := payload
		if name == "tampered" {
			body = strings.Replace(payload, "call_1", "call_2", 1)
		}
		_, err := ConstructEvent([]byte(body), header, "whsec_old")
		var sigErr *SignatureError
		if !errors.As(err, &sigErr) {
			t.Fatalf("%s: got %v, want a *SignatureError", name, err)
		}
	}
}

// The header's format is the TypeScript SDK's signatureHeader: t=<unix>,v1=<64 hex>.
func TestSignatureHeaderFormat(t *testing.T) {
	h := SignatureHeader([]byte("x"), "s", time.Unix(1700000000, 0))
	if !strings.HasPrefix(h, "t=1700000000,v1=") || len(h) != len("t=1700000000,v1=")+64 {
		t.Fatalf("header %q", h)
	}
}
