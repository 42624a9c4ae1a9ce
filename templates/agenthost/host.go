// Package agenthost serves several named agents from one server, each
// over A2A (its agent card, JSON-RPC and HTTP+JSON) and over AG-UI, under
// /v1/agents/{agent}/, with a listing of them at GET /v1/agents.
//
// For an agent named "travel" at base URL https://example.com:
//
//	GET  /v1/agents                                   the listing
//	GET  /v1/agents/travel/.well-known/agent-card.json its card
//	POST /v1/agents/travel                            A2A JSON-RPC
//	     /v1/agents/travel/message:send, /tasks/…      A2A HTTP+JSON
//	POST /v1/agents/travel/agui                       AG-UI, with
//	GET  /v1/agents/travel/agui/capabilities          its capabilities,
//	POST /v1/agents/travel/agui/cancel                the cancel of a run and
//	GET, POST /v1/agents/travel/agui/meta             META (with WithMetaStore)
//
// A2A streaming calls answer with AG-UI events when the client asks
// (Accept: application/x-agui-events, or ?format=agui).
package agenthost

// This file is written against the generated packages gen/agui, gen/a2a
// and gen/bridge; the generator copies it into the agenthost package of
// its output with those import paths rewritten.

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/bridge"
)

// AgentsPath is where the agents live.
const AgentsPath = "/v1/agents"

// AGUIPath is an agent's AG-UI endpoint, under its own path.
const AGUIPath = "/agui"

// Agent is one agent a Host serves.
type Agent struct {
	// Name is the agent's path segment: letters, digits, '.', '-' and '_'.
	Name string
	// Card is the agent's A2A card. When it lists no interfaces, the host's
	// JSON-RPC and HTTP+JSON ones are filled in.
	Card *a2a.AgentCard
	// A2A is the agent's A2A service; nil for an agent served over AG-UI
	// only.
	A2A *a2a.Service
	// AGUI is the agent's AG-UI side; nil for an agent served over A2A only.
	AGUI agui.Agent
}

// Host routes requests to its agents. Set its options before adding
// agents; it is safe for concurrent use.
type Host struct {
	// BaseURL is the server's external URL, which cards and the listing
	// name ("https://example.com").
	BaseURL string
	// A2AOptions configure every agent's A2A bindings; AGUIOptions, its
	// AG-UI endpoint (of them, WithKeepAlive and WithLogger also apply to
	// the AG-UI events of its A2A streams, which the A2A options guard).
	// With agui.WithAuthenticator among them each thread is its caller's
	// (agui.ThreadOwners): give the agents' bridge executors the same
	// checkpoint store, so that an A2A caller, naming a thread as its
	// message's context, is held to the same owners. With a2a.WithCORS and
	// agui.WithCORS among them, pages of those origins may call the agents
	// from a browser.
	A2AOptions  []a2a.ServerOption
	AGUIOptions []agui.Option

	mu     sync.RWMutex
	agents map[string]*mounted
}

type mounted struct {
	agent Agent
	url   string
	a2a   http.Handler
	agui  http.Handler
}

// New returns a host with no agents, at baseURL.
func New(baseURL string) *Host {
	return &Host{BaseURL: strings.TrimSuffix(baseURL, "/")}
}

var validName = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// Add mounts an agent.
func (h *Host) Add(a Agent) error {
	if !validName.MatchString(a.Name) || a.Name == "." || a.Name == ".." {
		return fmt.Errorf("agenthost: agent name %q: use letters, digits, '.', '-' and '_'", a.Name)
	}
	if a.A2A == nil && a.AGUI == nil {
		return fmt.Errorf("agenthost: agent %s serves neither A2A nor AG-UI", a.Name)
	}
	m := &mounted{agent: a, url: h.BaseURL + AgentsPath + "/" + a.Name}
	if a.A2A != nil {
		if a.Card == nil {
			return fmt.Errorf("agenthost: agent %s serves A2A without a card", a.Name)
		}
		card := *a.Card
		if len(card.SupportedInterfaces) == 0 {
			card.SupportedInterfaces = a2a.Interfaces(m.url)
		}
		m.agent.Card = &card
		opts := append(slices.Clip(h.A2AOptions), a2a.WithStreamFormat(bridge.StreamFormat(h.AGUIOptions...)))
		handler, err := a2a.NewHandler(a.A2A, &card, opts...)
		if err != nil {
			return fmt.Errorf("agenthost: agent %s: %w", a.Name, err)
		}
		m.a2a = handler
	}
	if a.AGUI != nil {
		m.agui = agui.NewHandler(a.AGUI, append(slices.Clip(h.AGUIOptions), agui.WithAgentName(a.Name))...)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.agents == nil {
		h.agents = map[string]*mounted{}
	}
	if _, dup := h.agents[a.Name]; dup {
		return fmt.Errorf("agenthost: an agent named %s is already mounted", a.Name)
	}
	h.agents[a.Name] = m
	return nil
}

// Listing is the body of GET /v1/agents.
type Listing struct {
	Agents []ListedAgent `json:"agents"`
}

// ListedAgent is one agent of the listing.
type ListedAgent struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// URL is the agent's base URL, ending in a slash: its A2A JSON-RPC
	// endpoint, the root of its HTTP+JSON paths, and the URL its card is
	// resolved against (".well-known/agent-card.json" below it, as
	// @a2a-js/sdk's createFromUrl reads a URL).
	URL string `json:"url"`
	// CardURL is where its agent card is, when it serves A2A.
	CardURL string `json:"cardUrl,omitempty"`
	// AGUIURL is its AG-UI endpoint, when it serves AG-UI.
	AGUIURL string `json:"aguiUrl,omitempty"`
}

// List returns the listing, by name.
func (h *Host) List() Listing {
	h.mu.RLock()
	defer h.mu.RUnlock()
	out := Listing{Agents: []ListedAgent{}}
	for _, name := range slices.Sorted(maps.Keys(h.agents)) {
		m := h.agents[name]
		la := ListedAgent{Name: name, URL: m.url + "/"}
		if m.a2a != nil {
			la.Description = m.agent.Card.Description
			la.CardURL = m.url + a2a.WellKnownCardPath
		}
		if m.agui != nil {
			la.AGUIURL = m.url + AGUIPath
		}
		out.Agents = append(out.Agents, la)
	}
	return out
}

// ServeHTTP routes a request to the agent its path names.
func (h *Host) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := r.URL.EscapedPath()
	if path == AgentsPath || path == AgentsPath+"/" {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeStatus(w, http.StatusMethodNotAllowed, "UNIMPLEMENTED", "the agent listing is read with GET")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(h.List())
		return
	}
	rest, ok := strings.CutPrefix(path, AgentsPath+"/")
	if !ok {
		writeStatus(w, http.StatusNotFound, "NOT_FOUND", "no route for "+path+"; agents are under "+AgentsPath)
		return
	}
	name, sub, _ := strings.Cut(rest, "/")
	h.mu.RLock()
	m := h.agents[name]
	h.mu.RUnlock()
	if m == nil {
		notFound(w, r, sub, fmt.Sprintf("no agent named %q; GET %s lists them", name, AgentsPath))
		return
	}
	sub = "/" + sub
	aguiRoute := sub == AGUIPath || sub == AGUIPath+agui.CapabilitiesPath || sub == AGUIPath+agui.CancelPath ||
		sub == AGUIPath+agui.MetaPath
	switch {
	case aguiRoute && m.agui != nil:
		m.agui.ServeHTTP(w, r)
	case m.a2a != nil && !aguiRoute:
		m.a2a.ServeHTTP(w, withPath(r, sub))
	default:
		notFound(w, r, sub, fmt.Sprintf("agent %q does not serve %s", name, sub))
	}
}

// withPath is r addressed to path (escaped) within its agent.
func withPath(r *http.Request, escaped string) *http.Request {
	r2 := new(http.Request)
	*r2 = *r
	u := *r.URL
	u.RawPath = escaped
	if p, err := url.PathUnescape(escaped); err == nil {
		u.Path = p
	}
	if u.Path == u.RawPath {
		u.RawPath = ""
	}
	r2.URL = &u
	return r2
}

// notFound answers a request for an agent or a path the host does not
// have, in the shape the caller's protocol reads: a JSON-RPC error for a
// POST to an agent's root, a google.rpc.Status otherwise.
func notFound(w http.ResponseWriter, r *http.Request, sub, msg string) {
	if r.Method == http.MethodPost && (sub == "" || sub == "/") {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": requestID(r),
			"error": map[string]any{"code": -32601, "message": msg}})
		w.Write(body)
		return
	}
	writeStatus(w, http.StatusNotFound, "NOT_FOUND", msg)
}

// maxIDScan bounds what of a request for an unknown agent is read to find
// its JSON-RPC id: no agent authenticated the caller, so no more is read
// than its headers may hold.
const maxIDScan = 4 << 10

// requestID is the id of the JSON-RPC request r holds, when it is among the
// members of its first maxIDScan bytes; else nil, which answers with null
// as JSON-RPC has it for an id that cannot be read.
func requestID(r *http.Request) json.RawMessage {
	dec := json.NewDecoder(io.LimitReader(r.Body, maxIDScan))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil
		}
		if key == "id" {
			switch value[0] {
			case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
				return value // a string or a number, as JSON-RPC's ids are
			}
			return nil
		}
	}
	return nil
}

// writeStatus writes a google.rpc.Status body, the error shape of A2A's
// HTTP+JSON binding, which AG-UI clients read by its message too.
func writeStatus(w http.ResponseWriter, code int, status, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	body, _ := json.Marshal(map[string]any{"error": map[string]any{"code": code, "status": status, "message": msg}})
	w.Write(body)
}
