package aguihttp

import "testing"

func TestPrefersProto(t *testing.T) {
	for accept, want := range map[string]bool{
		"": false, "text/event-stream": false, MediaTypeProto: true, "*/*": false, "application/*": false,
		MediaTypeProto + ";q=0.5, text/event-stream": false, MediaTypeProto + ";q=0": false,
		MediaTypeProto + ", text/event-stream;q=0.5": true, MediaTypeProto + ", text/event-stream": true,
		MediaTypeProto + ";q=0.5, */*;q=0.1": true, MediaTypeProto + ";q=0.5, text/event-stream;q=0, */*": true,
		"*/*, " + MediaTypeProto + ";q=0": false, "text/*": false, "application/json": false,
		"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8": false, // a browser's
	} {
		if got := PrefersProto(accept); got != want {
			t.Errorf("PrefersProto(%q) = %v, want %v", accept, got, want)
		}
	}
}

// A client gets the latest earlier version no later than its own; one
// older than all of them, or declaring none, the oldest; one of ours or a
// later version, or an unreadable one, ours ("").
func TestStreamVersion(t *testing.T) {
	earlier := []string{"1.0", "1.2"}
	for declared, want := range map[string]string{"": "1.0", "0.9": "1.0", "1.0": "1.0", "1.1": "1.0", "1.2": "1.2",
		"1.3": "", "1.4": "", "2.0": "", "one": ""} {
		var d *string
		if declared != "" {
			d = &declared
		}
		if got := StreamVersion(d, earlier, "1.3"); got != want {
			t.Errorf("a client declaring %q gets %q, want %q", declared, got, want)
		}
	}
	v := "1.0"
	if got := StreamVersion(&v, nil, "1.3"); got != "" {
		t.Errorf("with no earlier version: %q", got)
	}
}
