// Command typeerror is a sample with a deliberate type error: a call's to (the number dialed) is a string, so passing
// an int does not compile. test/integration/sdk-go.test.ts asserts that `go vet` rejects it (testdata is
// left out of `go build ./...`).
package main

import (
	"context"

	svc "github.com/svc-assistant/sdk-go"
)

func main() {
	client := svc.NewClient("sk_test_example")
	_, _ = client.Calls.Create(context.Background(), svc.CreateCallJSONRequestBody{To: 42, AgentId: svc.Ptr("agt_1")})
}
