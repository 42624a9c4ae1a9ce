package agenthost_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
	"github.com/agui-gen/agui-gen/gen/agenthost"
	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/bridge"
)

var greeter = agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
	return s.Text("Hello from " + in.ThreadID + ".")
})

// newHost serves two agents: "greeter" over both protocols (A2A through the
// bridge's executor) and "plain" over AG-UI only.
func newHost(t testing.TB) (*httptest.Server, *agenthost.Host) {
	srv := httptest.NewUnstartedServer(nil)
	host := agenthost.New("http://" + srv.Listener.Addr().String())
	rt := a2atask.New(&bridge.Executor{Agent: greeter}, a2atask.NewMemory())
	t.Cleanup(func() { rt.Close() })
	card := &a2a.AgentCard{Name: "greeter", Description: "Says hello.", Version: "1.0.0",
		Capabilities:      &a2a.AgentCapabilities{Streaming: new(true)}, // the AG-UI stream format streams
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []*a2a.AgentSkill{{ID: "hello", Name: "Hello", Description: "Greets.", Tags: []string{"greeting"}}}}
	if err := host.Add(agenthost.Agent{Name: "greeter", Card: card, A2A: a2a.BindA2AService(rt), AGUI: greeter}); err != nil {
		t.Fatal(err)
	}
	if err := host.Add(agenthost.Agent{Name: "plain", AGUI: greeter}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []agenthost.Agent{{Name: "greeter", AGUI: greeter}, {Name: "a/b", AGUI: greeter}, {Name: "none"}, {Name: "nocard", A2A: a2a.BindA2AService(rt)}} {
		if err := host.Add(bad); err == nil {
			t.Errorf("Add(%q) succeeded", bad.Name)
		}
	}
	srv.Config.Handler = host
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, host
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// TestHost: the listing names both agents; each agent's card, A2A bindings
// and AG-UI endpoint live under its path; an unknown agent gets a 404 in
// the caller's protocol.
func TestHost(t *testing.T) {
	srv, _ := newHost(t)
	base := srv.URL + agenthost.AgentsPath

	status, body := get(t, base)
	var listing agenthost.Listing
	if err := json.Unmarshal([]byte(body), &listing); status != 200 || err != nil || len(listing.Agents) != 2 {
		t.Fatalf("listing: %d %s", status, body)
	}
	g := listing.Agents[0]
	if g.Name != "greeter" || g.URL != base+"/greeter/" || g.CardURL != base+"/greeter/.well-known/agent-card.json" ||
		g.AGUIURL != base+"/greeter/agui" || g.Description != "Says hello." {
		t.Errorf("greeter listed as %+v", g)
	}
	if p := listing.Agents[1]; p.Name != "plain" || p.CardURL != "" || p.AGUIURL != base+"/plain/agui" {
		t.Errorf("plain listed as %+v", p)
	}

	ctx := context.Background()
	card, err := a2a.ResolveCard(ctx, base+"/greeter")
	if err != nil {
		t.Fatal(err)
	}
	for _, binding := range []string{a2a.BindingJSONRPC, a2a.BindingHTTPJSON} {
		transport, iface, err := a2a.NewTransportFromCard(card, a2a.WithPreferredBindings(binding))
		if err != nil {
			t.Fatal(err)
		}
		if iface.URL != base+"/greeter" {
			t.Errorf("%s interface at %s", binding, iface.URL)
		}
		resp, err := a2a.NewA2AServiceClient(transport).SendMessage(ctx, &a2a.SendMessageRequest{Message: &a2a.Message{
			MessageID: "m-" + binding, ContextID: "ctx-1", Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "hi"}}}}})
		if err != nil {
			t.Fatalf("%s: %v", binding, err)
		}
		task := resp.Payload.(*a2a.SendMessageResponseTask).Task
		if task.Status.State != a2a.TaskStateCompleted || task.Artifacts[0].Parts[0].Content.(*a2a.PartText).Text != "Hello from ctx-1." {
			t.Errorf("%s: task %v", binding, task)
		}
	}

	for _, agent := range []string{"greeter", "plain"} {
		rs, err := (&agui.Client{URL: base + "/" + agent + "/agui"}).Run(ctx, &agui.RunAgentInput{ThreadID: "t-" + agent, RunID: "r-1", Messages: []agui.Message{}})
		if err != nil {
			t.Fatal(err)
		}
		if err := rs.Wait(); err != nil {
			t.Fatal(err)
		}
		if msgs := rs.Messages(); len(msgs) != 1 || *msgs[0].(*agui.AssistantMessage).Content != "Hello from t-"+agent+"." {
			t.Errorf("%s over AG-UI: %v", agent, msgs)
		}
	}

	// The AG-UI side's capabilities route is the agent's.
	if code, body := get(t, base+"/plain/agui/capabilities"); code != 404 || !strings.Contains(body, "declares no capabilities") {
		t.Errorf("capabilities of an agent that declares none: %d %s", code, body)
	}

	// A2A streams answer with AG-UI events on request, through the host too.
	req, _ := http.NewRequest(http.MethodPost, base+"/greeter/message:stream?format=agui",
		strings.NewReader(`{"message":{"messageId":"m-s","role":"ROLE_USER","parts":[{"text":"hi"}]}}`))
	req.Header.Set("A2A-Version", "1.0")
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	stream, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(stream), `"type":"RUN_STARTED"`) || !strings.Contains(string(stream), `"type":"RUN_FINISHED"`) {
		t.Errorf("AG-UI format through the host: %s", stream)
	}

	// A 0.3 client's JSON-RPC call reaches the agent through the host too.
	v03, _ := http.NewRequest(http.MethodPost, base+"/greeter", strings.NewReader(`{"jsonrpc":"2.0","id":"v03","method":"message/send",`+
		`"params":{"message":{"kind":"message","messageId":"m-03","contextId":"ctx-3","role":"user","parts":[{"kind":"text","text":"hi"}]}}}`))
	v03.Header.Set("Content-Type", "application/json")
	if res, err = http.DefaultClient.Do(v03); err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(answer), `"kind":"task"`) || !strings.Contains(string(answer), `"state":"completed"`) ||
		!strings.Contains(string(answer), `"text":"Hello from ctx-3."`) {
		t.Errorf("0.3 message/send through the host: %s", answer)
	}
	// And its HTTP+JSON call, on 0.3's path below the agent's URL.
	rest, _ := http.NewRequest(http.MethodPost, base+"/greeter/v1/message:send", strings.NewReader(
		`{"message":{"messageId":"m-04","contextId":"ctx-4","role":"ROLE_USER","content":[{"text":"hi"}]}}`))
	rest.Header.Set("Content-Type", "application/json")
	if res, err = http.DefaultClient.Do(rest); err != nil {
		t.Fatal(err)
	}
	answer, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(answer), `"state":"TASK_STATE_COMPLETED"`) || !strings.Contains(string(answer), `"text":"Hello from ctx-4."`) {
		t.Errorf("0.3 POST /v1/message:send through the host: %d %s", res.StatusCode, answer)
	}

	// Unknown agents and paths.
	for _, tc := range []struct {
		method, path, want string
		status             int
	}{
		{"GET", "/v1/agents/nobody/.well-known/agent-card.json", `"status":"NOT_FOUND"`, 404},
		{"POST", "/v1/agents/nobody", `"code":-32601`, 404},
		{"POST", "/v1/agents/nobody/agui", `"status":"NOT_FOUND"`, 404},
		{"GET", "/v1/agents/plain/.well-known/agent-card.json", `does not serve`, 404},
		{"GET", "/elsewhere", `"status":"NOT_FOUND"`, 404},
		{"POST", "/v1/agents", `"status":"UNIMPLEMENTED"`, 405},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader(`{}`))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status || !strings.Contains(string(body), tc.want) || res.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s: %d %s", tc.method, tc.path, res.StatusCode, body)
		}
	}

	// A JSON-RPC call to an unknown agent is answered with its own id, when
	// the id can be read from the start of the body; null otherwise.
	for body, id := range map[string]string{
		`{"jsonrpc":"2.0","id":7,"method":"SendMessage","params":{}}`:           `7`,
		`{"jsonrpc":"2.0","method":"SendMessage","params":{},"id":"abc"}`:       `"abc"`,
		`{"jsonrpc":"2.0","id":{"not":"an id"},"method":"x"}`:                   `null`,
		`{"jsonrpc":"2.0","params":"` + strings.Repeat("x", 5000) + `","id":9}`: `null`,
		`[{"jsonrpc":"2.0","id":1}]`:                                            `null`,
		`not json`:                                                              `null`,
	} {
		res, err := http.Post(srv.URL+"/v1/agents/nobody", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		answer, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !strings.Contains(string(answer), `"id":`+id+`,`) && !strings.Contains(string(answer), `"id":`+id+`}`) {
			t.Errorf("%.40s: %s, want id %s", body, answer, id)
		}
	}
}

// TestHostServesAGUIMeta: an agent's META route is its AG-UI handler's, so
// a META store in the host's AG-UI options takes feedback and answers
// queries under /agui/meta.
func TestHostServesAGUIMeta(t *testing.T) {
	host := agenthost.New("http://host")
	host.AGUIOptions = []agui.Option{agui.WithMetaStore(agui.NewMemoryMeta())}
	if err := host.Add(agenthost.Agent{Name: "plain", AGUI: greeter}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(host)
	defer srv.Close()
	ctx := context.Background()
	c := &agui.Client{URL: srv.URL + agenthost.AgentsPath + "/plain" + agenthost.AGUIPath}
	if _, err := c.SendMeta(ctx, "t-1", "", &agui.MetaEvent{Payload: &agui.ThumbsUpPayload{MessageID: "m-1"}}); err != nil {
		t.Fatalf("POST /agui/meta: %v", err)
	}
	page, err := c.Meta(ctx, agui.MetaQuery{ThreadID: "t-1"})
	if err != nil || len(page.Events) != 1 || page.Events[0].Event.Payload.MetaType() != "thumbs_up" {
		t.Fatalf("GET /agui/meta: %+v %v", page, err)
	}
}

// FuzzHostRoute: any method and path gets an answer, never a panic or a
// server error, and an unknown agent always a 404.
func FuzzHostRoute(f *testing.F) {
	for _, seed := range [][2]string{{"GET", "/v1/agents"}, {"POST", "/v1/agents/greeter"}, {"GET", "/v1/agents/greeter/tasks/x"},
		{"POST", "/v1/agents/plain/agui"}, {"GET", "/v1/agents/%2e%2e/.well-known/agent-card.json"}, {"DELETE", "/v1/agents//"},
		{"GET", "/v1/agents/greeter/tasks/a%2Fb:subscribe?format=agui"}, {"POST", "/v1/agents/nobody/message:send"}} {
		f.Add(seed[0], seed[1])
	}
	srv, host := newHost(f)
	srv.Close() // requests go to the handler directly
	f.Fuzz(func(t *testing.T, method, target string) {
		req, err := http.NewRequest(method, "http://host"+target, strings.NewReader(`{}`))
		if err != nil || !strings.HasPrefix(target, "/") {
			return
		}
		req.Header.Set("A2A-Version", "1.0")
		rec := httptest.NewRecorder()
		host.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %s: %d %s", method, target, rec.Code, rec.Body)
		}
		rest, underAgents := strings.CutPrefix(req.URL.EscapedPath(), agenthost.AgentsPath+"/")
		name, _, _ := strings.Cut(rest, "/")
		if underAgents && rest != "" && name != "greeter" && name != "plain" && rec.Code != http.StatusNotFound {
			t.Fatalf("%s %s: agent %q answered %d", method, target, name, rec.Code)
		}
	})
}

// TestHostHoldsThreadsToTheirCallers: with an authenticator among the
// host's AG-UI options, each agent's threads are their callers': bob is
// told alice's thread does not exist, whether he runs on it or asks for
// its feedback.
func TestHostHoldsThreadsToTheirCallers(t *testing.T) {
	host := agenthost.New("http://host")
	host.AGUIOptions = []agui.Option{agui.WithMetaStore(agui.NewMemoryMeta()), agui.WithCheckpoints(agui.NewMemoryCheckpoints()),
		agui.WithAuthenticator(func(r *http.Request) (string, error) {
			return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "), nil
		})}
	if err := host.Add(agenthost.Agent{Name: "plain", AGUI: greeter}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(host)
	defer srv.Close()
	ctx := context.Background()
	as := func(user string) *agui.Client {
		return &agui.Client{URL: srv.URL + agenthost.AgentsPath + "/plain" + agenthost.AGUIPath, Header: http.Header{"Authorization": {"Bearer " + user}}}
	}
	rs, err := as("alice").Run(ctx, &agui.RunAgentInput{ThreadID: "t-1", RunID: "r-1", Messages: []agui.Message{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := as("alice").SendMeta(ctx, "t-1", "r-1", agui.NewThumbsUpMeta("m-1")); err != nil {
		t.Fatal(err)
	}
	var he *agui.HTTPError
	if _, err := as("bob").Run(ctx, &agui.RunAgentInput{ThreadID: "t-1", RunID: "r-2", Messages: []agui.Message{}}); !errors.As(err, &he) || he.StatusCode != http.StatusNotFound {
		t.Errorf("bob's run on alice's thread: %v", err)
	}
	for _, thread := range []string{"t-1", "t-9"} {
		if _, err := as("bob").Meta(ctx, agui.MetaQuery{ThreadID: thread}); !errors.As(err, &he) || he.StatusCode != http.StatusNotFound || string(he.Body) != `{"error":{"message":"thread not found"}}`+"\n" {
			t.Errorf("bob's query of %s: %v", thread, err)
		}
	}
}

// WithCORS among a host's options lets pages of that origin call each
// agent's AG-UI and A2A routes, and no other origin.
func TestHostCORS(t *testing.T) {
	srv := httptest.NewUnstartedServer(nil)
	host := agenthost.New("http://" + srv.Listener.Addr().String())
	const origin = "http://localhost:5173"
	host.A2AOptions = []a2a.ServerOption{a2a.WithCORS(a2a.CORS{AllowedOrigins: []string{origin}})}
	host.AGUIOptions = []agui.Option{agui.WithCORS(agui.CORS{AllowedOrigins: []string{origin}})}
	rt := a2atask.New(&bridge.Executor{Agent: greeter}, a2atask.NewMemory())
	t.Cleanup(func() { rt.Close() })
	card := &a2a.AgentCard{Name: "greeter", Description: "Says hello.", Version: "1.0.0",
		Capabilities:      &a2a.AgentCapabilities{Streaming: new(true)},
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []*a2a.AgentSkill{{ID: "hello", Name: "Hello", Description: "Greets.", Tags: []string{"greeting"}}}}
	if err := host.Add(agenthost.Agent{Name: "greeter", Card: card, A2A: a2a.BindA2AService(rt), AGUI: greeter}); err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = host
	srv.Start()
	t.Cleanup(srv.Close)
	for _, path := range []string{"/agui", "/agui/capabilities", "/", "/message:stream"} {
		for _, from := range []string{origin, "https://evil.example"} {
			req, _ := http.NewRequest(http.MethodOptions, srv.URL+agenthost.AgentsPath+"/greeter"+path, nil)
			req.Header.Set("Origin", from)
			req.Header.Set("Access-Control-Request-Method", http.MethodPost)
			req.Header.Set("Access-Control-Request-Headers", "authorization,content-type")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			want := ""
			if from == origin {
				want = origin
			}
			if got := res.Header.Get("Access-Control-Allow-Origin"); got != want {
				t.Errorf("preflight of %s from %s: Access-Control-Allow-Origin %q, want %q", path, from, got, want)
			}
		}
	}
}
