// Command downstream shows a module that generates its own AG-UI package with
// agui-gen (see gen.go) and uses it: it builds a short run of events,
// validates them, writes them to stdout as server-sent events and decodes the
// first frame back.
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"log"
	"os"

	"example.com/downstream/gen/agui"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("downstream: ")

	role := agui.TextMessageRoleAssistant
	events := []agui.Event{
		&agui.RunStartedEvent{ThreadID: "thread-1", RunID: "run-1"},
		&agui.TextMessageStartEvent{MessageID: "msg-1", Role: &role},
		&agui.TextMessageContentEvent{MessageID: "msg-1", Delta: "Hello from a generated package!"},
		&agui.TextMessageEndEvent{MessageID: "msg-1"},
		&agui.RunFinishedEvent{ThreadID: "thread-1", RunID: "run-1"},
	}

	w := bufio.NewWriter(os.Stdout)
	var buf, first []byte
	for _, ev := range events {
		if err := ev.Validate(); err != nil {
			log.Fatalf("%s: %v", ev.Type(), err)
		}
		buf = sseFrame(buf[:0], ev)
		if first == nil {
			first = bytes.Clone(buf)
		}
		if _, err := w.Write(buf); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}

	// A client reads the frames back: strip the SSE framing and decode by tag.
	payload := bytes.TrimSuffix(bytes.TrimPrefix(first, []byte("data: ")), []byte("\n\n"))
	ev, err := agui.UnmarshalEvent(payload)
	if err != nil {
		log.Fatal(err)
	}
	started, ok := ev.(*agui.RunStartedEvent)
	if !ok {
		log.Fatalf("decoded %T, want *agui.RunStartedEvent", ev)
	}
	fmt.Fprintf(os.Stderr, "decoded %s: thread %s, run %s\n", started.Type(), started.ThreadID, started.RunID)
}

// sseFrame appends ev to b as one server-sent event: "data: <json>\n\n".
func sseFrame(b []byte, ev agui.Event) []byte {
	b = append(b, "data: "...)
	b = ev.AppendJSON(b)
	return append(b, "\n\n"...)
}
