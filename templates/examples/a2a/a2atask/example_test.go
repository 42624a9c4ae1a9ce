package a2atask_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"syscall"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask/sqlitestore"
)

// The task runtime serves every task RPC on an executor and a store: a
// message starts or continues a task, the executor's calls change it
// (status, artifacts, a question for the user), and every change is an
// event that streams, resumes and survives in the store (NewMemory here;
// sqlitestore and pgstore keep them in a database, for restarts and
// replicas).
func ExampleNew() {
	exec := a2atask.ExecutorFunc(func(ctx context.Context, run *a2atask.Run) error {
		if len(run.Task().History) == 1 {
			return run.RequireInput(run.AgentMessage(&a2a.Part{Content: &a2a.PartText{Text: "Which city?"}}))
		}
		run.Working(nil)
		answer := []*a2a.Part{{Content: &a2a.PartText{Text: "sunny"}}}
		return run.AddArtifact(&a2a.Artifact{ArtifactID: "answer", Parts: answer}, a2atask.ArtifactOptions{LastChunk: true})
	}) // returning nil completes the task; Reject and Fail are there too
	rt := a2atask.New(exec, a2atask.NewMemory())
	defer rt.Close()
	srv := httptest.NewUnstartedServer(nil)
	card := &a2a.AgentCard{Name: "weather", Description: "Knows the weather.", Version: "1.0.0",
		SupportedInterfaces: a2a.Interfaces("http://" + srv.Listener.Addr().String()),
		Capabilities:        &a2a.AgentCapabilities{Streaming: new(true)}, // without it, streaming calls are refused
		DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []*a2a.AgentSkill{{ID: "weather", Name: "Weather", Description: "Tells the weather.", Tags: []string{"weather"}}}}
	h, err := a2a.NewHandler(a2a.BindA2AService(rt), card)
	if err != nil {
		log.Fatal(err)
	}
	srv.Config.Handler = h
	srv.Start()
	defer srv.Close()
	client := a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(srv.URL))

	ctx := context.Background()
	ask := func(text, taskID string) *a2a.Task {
		msg := &a2a.Message{MessageID: text, TaskID: taskID, Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: text}}}}
		resp, err := client.SendMessage(ctx, &a2a.SendMessageRequest{Message: msg})
		if err != nil {
			log.Fatal(err)
		}
		return resp.GetTask() // nil from an agent that answers with a message (resp.GetMessage())
	}
	task := ask("What is the weather?", "")
	fmt.Println(task.GetStatus().GetState(), task.GetStatus().GetMessage().GetParts()[0].GetText())
	task = ask("Paris", task.ID)
	fmt.Println(task.Status.State, task.Artifacts[0].Parts[0].Content.(*a2a.PartText).Text)
	// Output:
	// TASK_STATE_INPUT_REQUIRED Which city?
	// TASK_STATE_COMPLETED sunny
}

// answer is an executor on a streaming model: it reads the prompt from the
// message's text parts, and streams the model's answer into one artifact,
// a chunk per fragment, which streaming clients see grow; the last update
// replaces the chunks with the whole answer, so a client that reads the
// finished task finds it in one part.
var answer = a2atask.ExecutorFunc(func(ctx context.Context, run *a2atask.Run) error {
	var prompt strings.Builder // run.Task().History holds the task's earlier messages
	for _, p := range run.Message.Parts {
		if t, ok := p.Content.(*a2a.PartText); ok {
			prompt.WriteString(t.Text)
		}
	}
	if err := run.Working(nil); err != nil {
		return err
	}
	var whole strings.Builder
	for i, fragment := range []string{"It is sunny ", "in " + prompt.String() + "."} { // the model's stream here
		whole.WriteString(fragment)
		chunk := &a2a.Artifact{ArtifactID: "answer", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: fragment}}}}
		if err := run.AddArtifact(chunk, a2atask.ArtifactOptions{Append: i > 0}); err != nil {
			return err
		}
	}
	all := &a2a.Artifact{ArtifactID: "answer", Parts: []*a2a.Part{{Content: &a2a.PartText{Text: whole.String()}}}}
	return run.AddArtifact(all, a2atask.ArtifactOptions{LastChunk: true}) // no Append: it replaces the chunks
}) // returning nil completes the task

// weatherCard is the agent's card. Streaming is on: a card without it has
// its streaming calls (SendStreamingMessage, SubscribeToTask) refused.
func weatherCard(baseURL string) *a2a.AgentCard {
	return &a2a.AgentCard{Name: "weather", Description: "Knows the weather.", Version: "1.0.0",
		SupportedInterfaces: a2a.Interfaces(baseURL), // JSON-RPC at baseURL, HTTP+JSON below it
		Capabilities:        &a2a.AgentCapabilities{Streaming: new(true)},
		DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []*a2a.AgentSkill{{ID: "weather", Name: "Weather", Description: "Tells the weather.", Tags: []string{"weather"},
			Examples: []string{"Paris"}}}}
}

// main serves the agent as a program of its own, its tasks in SQLite
// (go run . --addr 127.0.0.1:9000 --db tasks.db), until SIGINT or SIGTERM.
func main() {
	addr := flag.String("addr", "127.0.0.1:9000", "address to listen on")
	db := flag.String("db", "tasks.db", "SQLite file for the tasks")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	store, err := sqlitestore.Open(ctx, *db) // or pgstore.Open(ctx, "postgres://…"), for replicas
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close() // last: the runtime writes to it until it has closed
	rt := a2atask.New(answer, store)
	defer rt.Close() // first: stops the runs still going, failing their tasks, and waits for them

	l, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	h, err := a2a.NewHandler(a2a.BindA2AService(rt), weatherCard("http://"+l.Addr().String()),
		a2a.WithCORS(a2a.CORS{AllowedOrigins: []string{"http://localhost:5173"}})) // a web client's origin
	if err != nil {
		log.Fatal(err)
	}
	srv := a2a.NewServer(h) // bounded: header size, read and idle timeouts
	go func() {
		if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
			log.Fatal(err)
		}
	}()
	log.Printf("A2A at http://%s/ (card at %s)", l.Addr(), a2a.WellKnownCardPath)
	<-ctx.Done()
	// The server first: no new calls, and 10 s for those in flight. Then
	// the deferred calls close the runtime, and the store after it.
	grace, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(grace); err != nil {
		srv.Close()
	}
}

// A v1.0 JSON-RPC call on the wire, as curl or a browser's fetch sends it:
// the method is the RPC's name, the params its request in ProtoJSON (enums
// by their full names, a text part as {"text": …}), and A2A-Version names
// 1.0 (a call without it is taken for v0.3's, A2A §3.6.2). The answer holds
// the task; a streaming call gets its events as they happen.
func Example_wire() {
	rt := a2atask.New(answer, a2atask.NewMemory())
	defer rt.Close()
	srv := httptest.NewUnstartedServer(nil)
	h, err := a2a.NewHandler(a2a.BindA2AService(rt), weatherCard("http://"+srv.Listener.Addr().String()))
	if err != nil {
		log.Fatal(err)
	}
	srv.Config.Handler = h
	srv.Start()
	defer srv.Close()

	body := `{"jsonrpc":"2.0","id":1,"method":"SendMessage",
	  "params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"Paris"}]}}}`
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/", strings.NewReader(body))
	if err != nil {
		log.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "1.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		log.Fatal(err)
	}
	var out bytes.Buffer
	json.Indent(&out, stable(data), "", "  ")
	fmt.Println(out.String())

	// The typed client: the card allows streaming, so the answer streams.
	client := a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(srv.URL))
	msg := &a2a.Message{MessageID: "m2", Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "Rome"}}}}
	for ev, err := range client.SendStreamingMessage(context.Background(), &a2a.SendMessageRequest{Message: msg}) {
		if err != nil {
			log.Fatal(err)
		}
		switch p := ev.Payload.(type) { // *a2a.StreamResponseTask first, then the updates
		case *a2a.StreamResponseStatusUpdate:
			fmt.Println(p.StatusUpdate.Status.State)
		case *a2a.StreamResponseArtifactUpdate:
			u := p.ArtifactUpdate
			fmt.Printf("%q append=%t lastChunk=%t\n", u.Artifact.Parts[0].Content.(*a2a.PartText).Text, u.Append, u.LastChunk)
		}
	}
	// Output:
	// {
	//   "jsonrpc": "2.0",
	//   "id": 1,
	//   "result": {
	//     "task": {
	//       "id": "…",
	//       "contextId": "…",
	//       "status": {
	//         "state": "TASK_STATE_COMPLETED",
	//         "timestamp": "…"
	//       },
	//       "artifacts": [
	//         {
	//           "artifactId": "answer",
	//           "parts": [
	//             {
	//               "text": "It is sunny in Paris."
	//             }
	//           ]
	//         }
	//       ],
	//       "history": [
	//         {
	//           "messageId": "m1",
	//           "contextId": "…",
	//           "taskId": "…",
	//           "role": "ROLE_USER",
	//           "parts": [
	//             {
	//               "text": "Paris"
	//             }
	//           ]
	//         }
	//       ]
	//     }
	//   }
	// }
	// TASK_STATE_WORKING
	// "It is sunny " append=false lastChunk=false
	// "in Rome." append=true lastChunk=false
	// "It is sunny in Rome." append=false lastChunk=true
	// TASK_STATE_COMPLETED
}

// stable replaces what differs from one run to the next (ids, times) by
// "…", for the example's output.
func stable(data []byte) []byte {
	return regexp.MustCompile(`"(id|contextId|taskId|timestamp)":"[^"]*"`).ReplaceAll(data, []byte(`"$1":"…"`))
}
