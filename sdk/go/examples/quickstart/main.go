// Command quickstart is the Go SDK's sample, run by CI against the service (test/integration/sdk-go.test.ts)
// as a new user runs it:
//
//	SVC_BASE_URL=… SVC_API_KEY=sk_test_… SVC_WEBHOOK_URL=https://… go run . flow
//	    an agent, a webhook endpoint, two test calls with metadata polled to completed, the transcript,
//	    the calls page by page, a 422 caught as a typed error, an event listed and typed
//	SVC_PAYLOAD=… SVC_SIGNATURE=… SVC_SECRET=… go run . verify
//	    a webhook delivery verified with webhook.ConstructEvent, and a forged one refused
//
// It prints one JSON line with what it saw and exits 1 on any unexpected error.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	svc "github.com/svc-assistant/sdk-go"
	"github.com/svc-assistant/sdk-go/webhook"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var out any
	var err error
	switch cmd := strings.Join(os.Args[1:], " "); cmd {
	case "flow":
		out, err = flow(ctx)
	case "verify":
		out, err = verify()
	default:
		err = fmt.Errorf("usage: quickstart flow|verify (got %q)", cmd)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
	line, _ := json.Marshal(out)
	fmt.Println(string(line))
}

// flow runs the first steps of a new user and reports what it saw.
func flow(ctx context.Context) (map[string]any, error) {
	client := svc.NewClient(os.Getenv("SVC_API_KEY"), svc.WithBaseURL(os.Getenv("SVC_BASE_URL")))
	agent, err := client.Agents.Create(ctx, svc.CreateAgentJSONRequestBody{
		Name: "SDK agent (Go)", Instructions: "You confirm appointments.",
	})
	if err != nil {
		return nil, err
	}
	endpoint, err := client.WebhookEndpoints.Create(ctx, svc.CreateWebhookEndpointJSONRequestBody{
		Url: os.Getenv("SVC_WEBHOOK_URL"), Events: []string{"call.ended"},
	})
	if err != nil {
		return nil, err
	}
	var placed []*svc.Call
	for n := 1; n <= 2; n++ {
		call, err := client.Calls.Create(ctx, svc.CreateCallJSONRequestBody{
			To:         fmt.Sprintf("+1415555%d", 7500+n),
			AgentId:    svc.Ptr(agent.Id),
			Metadata:   &map[string]string{"sdk": "go", "n": fmt.Sprint(n)},
			Simulation: &svc.CreateCallJSONBody_Simulation{Caller: &[]string{"Hi, is my appointment at ten?", "Thanks, bye."}},
		})
		if err != nil {
			return nil, err
		}
		placed = append(placed, call)
	}
	var statuses []svc.CallStatus
	var metadata map[string]string
	for _, call := range placed {
		ended, err := waitForEnd(ctx, client, call.Id)
		if err != nil {
			return nil, err
		}
		statuses = append(statuses, ended.Status)
		if metadata == nil {
			metadata = ended.Metadata
		}
	}

	transcript, err := client.Calls.Transcript(ctx, placed[0].Id)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, turn := range transcript.Turns {
		lines = append(lines, turn.Text)
	}

	first, err := client.Calls.List(ctx, &svc.ListCallsParams{Limit: svc.Ptr(1)})
	if err != nil {
		return nil, err
	}
	var paged []string
	for call, err := range client.Calls.ListAutoPaging(ctx, &svc.ListCallsParams{Limit: svc.Ptr(1)}) {
		if err != nil {
			return nil, err
		}
		paged = append(paged, call.Id)
	}

	refused, err := typed422(ctx, client, agent.Id)
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"call_ids":       []string{placed[0].Id, placed[1].Id},
		"statuses":       statuses,
		"metadata":       metadata,
		"transcript":     lines,
		"first_page":     map[string]any{"count": len(first.Data), "has_more": first.HasMore},
		"paged_ids":      paged,
		"error":          refused,
		"webhook_secret": endpoint.Secret,
	}, nil
}

// waitForEnd polls a call until its status is final (completed, failed, …).
func waitForEnd(ctx context.Context, client *svc.Client, id string) (*svc.Call, error) {
	for {
		call, err := client.Calls.Retrieve(ctx, id)
		if err != nil {
			return nil, err
		}
		switch call.Status {
		case svc.CallStatusCompleted, svc.CallStatusFailed, svc.CallStatusBusy, svc.CallStatusNoAnswer,
			svc.CallStatusCanceled, svc.CallStatusTransferred:
			return call, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("call %s still %s: %w", id, call.Status, ctx.Err())
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// typed422 reuses an Idempotency-Key with another request: the API refuses it with 422
// idempotency_key_reused, caught here with errors.As as a *svc.Error.
func typed422(ctx context.Context, client *svc.Client, agentID string) (map[string]any, error) {
	key := svc.WithIdempotencyKey(fmt.Sprintf("sdk-go-%d", time.Now().UnixNano()))
	if _, err := client.Calls.Create(ctx, svc.CreateCallJSONRequestBody{To: "+14155557598", AgentId: svc.Ptr(agentID)}, key); err != nil {
		return nil, err
	}
	_, err := client.Calls.Create(ctx, svc.CreateCallJSONRequestBody{To: "+14155557597", AgentId: svc.Ptr(agentID)}, key)
	var apiErr *svc.Error
	if !errors.As(err, &apiErr) {
		return nil, fmt.Errorf("expected a *svc.Error, got %v", err)
	}
	return map[string]any{
		"status": apiErr.HTTPStatusCode, "type": apiErr.Type, "code": apiErr.Code,
		"request_id": apiErr.RequestID != "", "is_reused": errors.Is(err, &svc.Error{Code: svc.ErrorCodeIdempotencyKeyReused}),
	}, nil
}

// verify checks a delivery as a webhook handler does, and that a forged signature is refused.
func verify() (map[string]any, error) {
	payload := []byte(os.Getenv("SVC_PAYLOAD"))
	event, err := webhook.ConstructEvent(payload, os.Getenv("SVC_SIGNATURE"), os.Getenv("SVC_SECRET"))
	if err != nil {
		return nil, err
	}
	callID := ""
	if e, ok := event.Object.(*svc.CallEvent); ok {
		callID = e.Data.Object.Id
	}
	forged := webhook.SignatureHeader(payload, "whsec_not_the_secret", time.Now())
	_, forgedErr := webhook.ConstructEvent(payload, forged, os.Getenv("SVC_SECRET"))
	var sigErr *webhook.SignatureError
	return map[string]any{
		"type": event.Type, "id": event.ID, "object": fmt.Sprintf("%T", event.Object), "call_id": callID,
		"forged_refused": errors.As(forgedErr, &sigErr),
	}, nil
}
