package svc

// NewEventObject returns a new value of the generated type of an event `type` (a *CallEvent for
// "call.ended", …), for decoding a delivery or a listed event; nil for a type this SDK does not know.
func NewEventObject(eventType string) any {
	if make, ok := eventTypes[eventType]; ok {
		return make()
	}
	return nil
}
