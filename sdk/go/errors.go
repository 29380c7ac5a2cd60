package svc

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// The error types the API answers with (error.type), and the SDK's own for a request that got no answer.
const (
	ErrorTypeInvalidRequest = "invalid_request_error" // 400, 404, 422: the request is wrong (Param names the field)
	ErrorTypeAuthentication = "authentication_error"  // 401: no key, or an unknown or revoked one
	ErrorTypePermission     = "permission_error"      // 403: the key may not do this (code scope_missing…)
	ErrorTypeRateLimit      = "rate_limit_error"      // 429: too many requests (RetryAfter says when to retry)
	ErrorTypeIdempotency    = "idempotency_error"     // 409/422 about an Idempotency-Key
	ErrorTypeAPI            = "api_error"             // 5xx: the service or a dependency failed
	ErrorTypeAPIConnection  = "api_connection_error"  // no answer: the connection failed or the attempt timed out
)

// Error is every failure of a request: an answer of the API (its error object, the HTTP status and the
// Request-Id header) or no answer at all (Type ErrorTypeAPIConnection, the cause unwrapped). Get it with
// errors.As(err, &svcErr); errors.Is(err, &svc.Error{Code: svc.ErrorCodeResourceMissing}) matches on the
// fields the target sets (Type, Code, Param, HTTPStatusCode).
type Error struct {
	HTTPStatusCode int           `json:"-"`       // 0 when no answer came
	Type           string        `json:"type"`    // one of the ErrorType constants
	Code           ErrorCode     `json:"code"`    // the stable reason: parameter_invalid, resource_missing, …
	Param          string        `json:"param"`   // the parameter at fault, when one is (contacts[17].phone)
	Message        string        `json:"message"` // for people
	RequestID      string        `json:"-"`       // the Request-Id header, to quote to support
	Reason         string        `json:"reason"`  // bundle_invalid only: what is wrong with the bundle
	TwilioCode     int           `json:"twilio_code"`
	RetryAfter     time.Duration `json:"-"` // the Retry-After the server sent (429, 503)
	hasRetryAfter  bool
	cause          error
}

// Error reads "svc: 422 invalid_request_error whatsapp_window_closed (param to): message [req_…]".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("svc: ")
	if e.HTTPStatusCode != 0 {
		fmt.Fprintf(&b, "%d ", e.HTTPStatusCode)
	}
	fmt.Fprintf(&b, "%s %s", e.Type, e.Code)
	if e.Param != "" {
		fmt.Fprintf(&b, " (param %s)", e.Param)
	}
	fmt.Fprintf(&b, ": %s", e.Message)
	if e.RequestID != "" {
		fmt.Fprintf(&b, " [%s]", e.RequestID)
	}
	return b.String()
}

// Unwrap is the network error of an ErrorTypeAPIConnection error (nil otherwise).
func (e *Error) Unwrap() error { return e.cause }

// Is matches a target *Error on the fields it sets: errors.Is(err, &svc.Error{Code: "resource_missing"}).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok {
		return false
	}
	return (t.Type == "" || t.Type == e.Type) && (t.Code == "" || t.Code == e.Code) &&
		(t.Param == "" || t.Param == e.Param) && (t.HTTPStatusCode == 0 || t.HTTPStatusCode == e.HTTPStatusCode)
}

// errorFrom reads the error object of a refused answer (or describes an answer that has none).
func errorFrom(res *http.Response, raw []byte) *Error {
	var body struct {
		Error *Error `json:"error"`
	}
	e := &Error{}
	if json.Unmarshal(raw, &body) == nil && body.Error != nil && body.Error.Type != "" {
		e = body.Error
	} else {
		e.Type, e.Code = ErrorTypeAPI, "invalid_response"
		if res.StatusCode < 500 {
			e.Type = ErrorTypeInvalidRequest
		}
		e.Message = fmt.Sprintf("HTTP %d: %.200s", res.StatusCode, raw)
	}
	e.HTTPStatusCode = res.StatusCode
	e.RequestID = res.Header.Get("Request-Id")
	e.RetryAfter, e.hasRetryAfter = parseRetryAfter(res.Header.Get("Retry-After"))
	return e
}
