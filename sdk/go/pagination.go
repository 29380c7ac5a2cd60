package svc

import (
	"bufio"
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/url"
	"strings"
)

// autoPage iterates every object of every page of a list operation, newest first as the API lists:
// each next page asks for starting_after the last object's id (dropping ending_before), until has_more
// is false. An error ends the iteration after being yielded once; breaking out of the loop stops paging.
func autoPage[T any](ctx context.Context, c *Client, method, path string, query url.Values, opts []RequestOption) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		q := url.Values{}
		for k, v := range query {
			q[k] = v
		}
		for {
			raw, err := doBytes(ctx, c, method, path, q, opts)
			if err != nil {
				yield(zero, err)
				return
			}
			var page struct {
				Data    []json.RawMessage `json:"data"`
				HasMore bool              `json:"has_more"`
			}
			if err := json.Unmarshal(raw, &page); err != nil {
				yield(zero, &Error{Type: ErrorTypeAPI, Code: "invalid_response", Message: "decoding a page: " + err.Error(), cause: err})
				return
			}
			last := ""
			for _, item := range page.Data {
				var v T
				var id struct {
					ID string `json:"id"`
				}
				err := json.Unmarshal(item, &v)
				_ = json.Unmarshal(item, &id)
				last = id.ID
				if err != nil {
					err = &Error{Type: ErrorTypeAPI, Code: "invalid_response", Message: "decoding an object: " + err.Error(), cause: err}
				}
				if !yield(v, err) || err != nil {
					return
				}
			}
			if !page.HasMore || last == "" {
				return
			}
			q.Del("ending_before")
			q.Set("starting_after", last)
		}
	}
}

// StreamEvent is one event of a text/event-stream answer (client.Calls.Stream): its `event` name
// (status, turn, tool_call, end), its `id` (the place in the stream, for WithLastEventID-style resumes)
// and its `data`, JSON whose shape the name tells (decode it with json.Unmarshal).
type StreamEvent struct {
	Event string
	ID    string
	Data  json.RawMessage
}

// streamEvents opens a text/event-stream operation and yields its events until the server closes the
// stream, ctx ends or the loop breaks (which closes the connection). Heartbeat comments are skipped. The
// opening request is retried like any other; a stream cut midway ends with its error.
func streamEvents(ctx context.Context, c *Client, method, path string, query url.Values, opts []RequestOption) iter.Seq2[StreamEvent, error] {
	return func(yield func(StreamEvent, error) bool) {
		res, _, err := c.execute(ctx, request{method: method, path: path, query: query, stream: true}, opts)
		if err != nil {
			yield(StreamEvent{}, err)
			return
		}
		defer res.Body.Close()
		readEvents(res, yield)
	}
}

// readEvents parses server-sent events (the WHATWG format: field lines, a blank line ends an event).
func readEvents(res *http.Response, yield func(StreamEvent, error) bool) {
	scanner := bufio.NewScanner(res.Body)
	scanner.Buffer(make([]byte, 64*1024), 16*1024*1024)
	var ev StreamEvent
	var data []string
	for scanner.Scan() {
		line := scanner.Text()
		if line == "" {
			if len(data) > 0 || ev.Event != "" {
				ev.Data = json.RawMessage(strings.Join(data, "\n"))
				if !yield(ev, nil) {
					return
				}
			}
			ev, data = StreamEvent{}, nil
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "event":
			ev.Event = value
		case "id":
			ev.ID = value
		case "data":
			data = append(data, value)
		}
	}
	if err := scanner.Err(); err != nil {
		yield(StreamEvent{}, &Error{Type: ErrorTypeAPIConnection, Code: "connection_failed", Message: "reading the stream: " + err.Error(), cause: err})
	}
}
