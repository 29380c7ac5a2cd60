package svc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// recorder is an httptest server answering with the next of its scripted answers, keeping every request.
type recorder struct {
	mu       sync.Mutex
	answers  []func(w http.ResponseWriter)
	requests []*http.Request
	bodies   []string
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec.mu.Lock()
	n := len(rec.requests)
	rec.requests = append(rec.requests, r)
	rec.bodies = append(rec.bodies, string(body))
	rec.mu.Unlock()
	rec.answers[min(n, len(rec.answers)-1)](w)
}

func answer(status int, body string, headers ...string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

func serve(t *testing.T, answers ...func(w http.ResponseWriter)) (*Client, *recorder) {
	t.Helper()
	rec := &recorder{answers: answers}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	return NewClient("sk_test_unit", WithBaseURL(srv.URL)), rec
}

const unavailable = `{"error":{"type":"api_error","code":"service_unavailable","message":"The store did not answer."}}`

func TestRetriesReuseOneIdempotencyKey(t *testing.T) {
	client, rec := serve(t,
		answer(503, unavailable, "Retry-After", "0"),
		answer(429, `{"error":{"type":"rate_limit_error","code":"rate_limit_exceeded","message":"Slow down."}}`, "Retry-After", "0"),
		answer(200, `{"id":"call_1","object":"call","status":"queued","agent_id":"agt_1","to":"+14155550123"}`),
	)
	call, err := client.Calls.Create(context.Background(), CreateCallJSONRequestBody{To: "+14155550123", AgentId: Ptr("agt_1")})
	if err != nil {
		t.Fatal(err)
	}
	if call.Id != "call_1" || call.Status != CallStatusQueued {
		t.Fatalf("got %+v", call)
	}
	if len(rec.requests) != 3 {
		t.Fatalf("%d attempts, want 3", len(rec.requests))
	}
	key := rec.requests[0].Header.Get("Idempotency-Key")
	for i, r := range rec.requests {
		if got := r.Header.Get("Idempotency-Key"); got != key || key == "" {
			t.Fatalf("attempt %d: Idempotency-Key %q, want %q", i, got, key)
		}
		if r.Header.Get("Authorization") != "Bearer sk_test_unit" || r.Header.Get("Svc-Version") != APIVersion {
			t.Fatalf("attempt %d: headers %v", i, r.Header)
		}
		var body map[string]any
		if err := json.Unmarshal([]byte(rec.bodies[i]), &body); err != nil || body["to"] != "+14155550123" {
			t.Fatalf("attempt %d: body %s", i, rec.bodies[i])
		}
	}
}

func TestEachLogicalPostGetsItsOwnKeyUnlessGiven(t *testing.T) {
	client, rec := serve(t, answer(200, `{"id":"agt_1"}`))
	ctx := context.Background()
	for range 2 {
		if _, err := client.Agents.Create(ctx, CreateAgentJSONRequestBody{Name: "a", Instructions: "b"}); err != nil {
			t.Fatal(err)
		}
	}
	_, _ = client.Agents.Create(ctx, CreateAgentJSONRequestBody{Name: "a", Instructions: "b"}, WithIdempotencyKey("mine"))
	k := func(i int) string { return rec.requests[i].Header.Get("Idempotency-Key") }
	if k(0) == k(1) || k(2) != "mine" {
		t.Fatalf("keys %q %q %q", k(0), k(1), k(2))
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	client, rec := serve(t, answer(503, unavailable, "Retry-After", "1"), answer(200, `{"id":"call_1"}`))
	start := time.Now()
	if _, err := client.Calls.Retrieve(context.Background(), "call_1"); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited < 900*time.Millisecond {
		t.Fatalf("retried after %v, want the 1 s of Retry-After", waited)
	}
	if len(rec.requests) != 2 {
		t.Fatalf("%d attempts", len(rec.requests))
	}
}

func TestTypedErrorsAreNotRetried(t *testing.T) {
	client, rec := serve(t, answer(422,
		`{"error":{"type":"invalid_request_error","code":"whatsapp_window_closed","param":"to","message":"No open window."}}`,
		"Request-Id", "req_123"))
	_, err := client.Messages.Send(context.Background(), SendMessageJSONRequestBody{Channel: "whatsapp"})
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		t.Fatalf("got %v, want a *Error", err)
	}
	if apiErr.HTTPStatusCode != 422 || apiErr.Code != ErrorCodeWhatsappWindowClosed || apiErr.Param != "to" ||
		apiErr.RequestID != "req_123" || apiErr.Type != ErrorTypeInvalidRequest || apiErr.Message != "No open window." {
		t.Fatalf("got %+v", apiErr)
	}
	if !errors.Is(err, &Error{Code: ErrorCodeWhatsappWindowClosed}) || errors.Is(err, &Error{Code: ErrorCodeResourceMissing}) {
		t.Fatal("errors.Is does not match on the code")
	}
	if len(rec.requests) != 1 {
		t.Fatalf("%d attempts of a 422, want 1", len(rec.requests))
	}
}

func TestRetriesStopAtMaxRetries(t *testing.T) {
	client, rec := serve(t, answer(500, `not json`))
	_, err := client.Account.Retrieve(context.Background(), WithMaxRetries(1))
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Type != ErrorTypeAPI || apiErr.HTTPStatusCode != 500 {
		t.Fatalf("got %v", err)
	}
	if len(rec.requests) != 2 {
		t.Fatalf("%d attempts, want 2", len(rec.requests))
	}
}

func TestConnectionFailureIsATypedError(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	client := NewClient("sk_test_unit", WithBaseURL(srv.URL), WithMaxRetries(0))
	_, err := client.Account.Retrieve(context.Background())
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Type != ErrorTypeAPIConnection || errors.Unwrap(err) == nil {
		t.Fatalf("got %v", err)
	}
}

func TestAutoPagingFollowsStartingAfter(t *testing.T) {
	page := func(ids []string, more bool) func(w http.ResponseWriter) {
		var data []map[string]string
		for _, id := range ids {
			data = append(data, map[string]string{"id": id, "object": "call"})
		}
		b, _ := json.Marshal(map[string]any{"object": "list", "data": data, "has_more": more, "url": "/v1/calls"})
		return answer(200, string(b))
	}
	client, rec := serve(t, page([]string{"c3", "c2"}, true), page([]string{"c1"}, false))
	var ids []string
	for call, err := range client.Calls.ListAutoPaging(context.Background(), &ListCallsParams{Limit: Ptr(2), Status: Ptr(ListCallsParamsStatusCompleted)}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, call.Id)
	}
	if fmt.Sprint(ids) != "[c3 c2 c1]" {
		t.Fatalf("ids %v", ids)
	}
	q0, q1 := rec.requests[0].URL.Query(), rec.requests[1].URL.Query()
	if q0.Get("limit") != "2" || q0.Get("status") != "completed" || q0.Has("starting_after") {
		t.Fatalf("first query %v", q0)
	}
	if q1.Get("starting_after") != "c2" || q1.Get("status") != "completed" {
		t.Fatalf("second query %v", q1)
	}
}

func TestStreamYieldsServerSentEvents(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, ": heartbeat\n\nid: 1\nevent: status\ndata: {\"status\":\"in_progress\"}\n\nid: 2\nevent: end\ndata: {\"status\":\"completed\"}\n\n")
	}))
	defer srv.Close()
	client := NewClient("sk_test_unit", WithBaseURL(srv.URL))
	var got []string
	for ev, err := range client.Calls.Stream(context.Background(), "call_1", nil) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ev.ID+" "+ev.Event+" "+string(ev.Data))
	}
	want := `[1 status {"status":"in_progress"} 2 end {"status":"completed"}]`
	if fmt.Sprint(got) != want {
		t.Fatalf("got %v", got)
	}
}
