package v03

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2av03"
)

// fixToV03TaskStatusUpdateEvent sets "final", which 1.0 dropped: 0.3
// clients stop reading a stream at the update that says it. 1.0 ends a
// stream after a terminal state or one that waits for the client (A2A
// §3.1.2), so those are final.
func fixToV03TaskStatusUpdateEvent(x *a2a.TaskStatusUpdateEvent, out *a2av03.TaskStatusUpdateEvent) {
	out.Final = final(x.Status)
}

// final reports whether a status update ends a 0.3 client's stream: its
// state is terminal or waits for the client.
func final(status *a2a.TaskStatus) bool {
	if status == nil {
		return false
	}
	switch status.State {
	case a2a.TaskStateCompleted, a2a.TaskStateFailed, a2a.TaskStateCanceled, a2a.TaskStateRejected,
		a2a.TaskStateInputRequired, a2a.TaskStateAuthRequired:
		return true
	}
	return false
}

// fixFromV03SendMessageConfiguration carries what 1.0 renamed: 0.3's
// "blocking" is 1.0's "returnImmediately" turned over (absent, both wait),
// and its push config is 1.0's task push config.
func fixFromV03SendMessageConfiguration(x *a2av03.MessageSendConfiguration, out *a2a.SendMessageConfiguration) error {
	out.ReturnImmediately = x.Blocking != nil && !*x.Blocking
	if x.PushNotificationConfig != nil {
		out.TaskPushNotificationConfig = pushFromV03(x.PushNotificationConfig)
	}
	return nil
}

// fixToV03AgentCard fills the members by which a 0.3 client finds the
// agent: the protocol version, and "url", "preferredTransport" and
// "additionalInterfaces" for the interfaces that serve 0.3
// (servedToV03). Security requirements move to 0.3's "security", the
// extended card to "supportsAuthenticatedExtendedCard".
func fixToV03AgentCard(x *a2a.AgentCard, out *a2av03.AgentCard) {
	out.ProtocolVersion = "0.3.0"
	for _, i := range servedToV03(x) {
		if out.URL == "" {
			out.URL, out.PreferredTransport = i.URL, &i.ProtocolBinding
		}
		out.AdditionalInterfaces = append(out.AdditionalInterfaces, a2av03.AgentInterface{Transport: i.ProtocolBinding, URL: i.URL})
	}
	out.Security = securityToV03(x.SecurityRequirements)
	if extendedCard(x) {
		supports := true
		out.SupportsAuthenticatedExtendedCard = &supports
	}
}

// extendedCard reports whether a card says the agent has an extended card.
func extendedCard(x *a2a.AgentCard) bool {
	return x.Capabilities != nil && x.Capabilities.ExtendedAgentCard != nil && *x.Capabilities.ExtendedAgentCard
}

// servedToV03 lists the interfaces of a card that serve 0.3: those it
// lists with protocolVersion 0.3, or else its JSON-RPC ones, whose
// endpoint serves 0.3's methods beside 1.0's. A JSON-RPC one comes first,
// as the one a 0.3 client prefers.
func servedToV03(x *a2a.AgentCard) []*a2a.AgentInterface {
	var served []*a2a.AgentInterface
	for _, i := range x.SupportedInterfaces {
		if i.ProtocolVersion == "0.3" || strings.HasPrefix(i.ProtocolVersion, "0.3.") {
			served = append(served, i)
		}
	}
	if len(served) == 0 {
		for _, i := range x.SupportedInterfaces {
			if i.ProtocolBinding == "JSONRPC" {
				served = append(served, i)
			}
		}
	}
	rank := func(i *a2a.AgentInterface) int {
		if i.ProtocolBinding == "JSONRPC" {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(served, func(a, b *a2a.AgentInterface) int { return cmp.Compare(rank(a), rank(b)) })
	return served
}

// fixToV03AgentSkill moves a skill's security requirements to 0.3's
// "security".
func fixToV03AgentSkill(x *a2a.AgentSkill, out *a2av03.AgentSkill) {
	out.Security = securityToV03(x.SecurityRequirements)
}

// securityToV03 writes 1.0's requirements ({"schemes": {name: {"list":
// scopes}}}) as 0.3's ({name: scopes}).
func securityToV03(reqs []*a2a.SecurityRequirement) []map[string][]string {
	var out []map[string][]string
	for _, r := range reqs {
		m := map[string][]string{}
		for name, scopes := range r.Schemes {
			m[name] = []string{}
			if scopes != nil && scopes.List != nil {
				m[name] = scopes.List
			}
		}
		out = append(out, m)
	}
	return out
}

// fixToV03APIKeySecurityScheme carries 1.0's "location" as 0.3's "in".
func fixToV03APIKeySecurityScheme(x *a2a.APIKeySecurityScheme, out *a2av03.APIKeySecurityScheme) {
	out.In = a2av03.APIKeySecuritySchemeIn(strings.ToLower(x.Location))
}

// fixFromV03AgentCard reads how a 0.3 card says where to call: each of its
// interfaces ("url" with "preferredTransport", then "additionalInterfaces")
// becomes a supported interface at the card's protocol version, so a
// client picks it as a 0.3 one. Security and the extended card move back.
func fixFromV03AgentCard(x *a2av03.AgentCard, out *a2a.AgentCard) error {
	preferred := ""
	if x.PreferredTransport != nil {
		preferred = *x.PreferredTransport
	}
	additional := make([][2]string, len(x.AdditionalInterfaces))
	for i, a := range x.AdditionalInterfaces {
		additional[i] = [2]string{a.URL, a.Transport}
	}
	cardFromV03(out, x.ProtocolVersion, x.URL, preferred, additional,
		x.SupportsAuthenticatedExtendedCard != nil && *x.SupportsAuthenticatedExtendedCard)
	out.SecurityRequirements = securityFromV03(x.Security)
	return nil
}

// cardFromV03 reads where a 0.3 card, of either 0.3 wire, says to call:
// its url with its preferred transport (JSON-RPC when it names none), then
// its additional interfaces ({url, transport}), each an interface at the
// card's protocol version (Major.Minor), once; and whether it offers an
// extended card.
func cardFromV03(out *a2a.AgentCard, protocolVersion, url, preferred string, additional [][2]string, extended bool) {
	version := protocolVersion
	if major, rest, ok := strings.Cut(version, "."); ok {
		minor, _, _ := strings.Cut(rest, ".")
		version = major + "." + minor
	}
	add := func(url, binding string) {
		for _, i := range out.SupportedInterfaces {
			if i.URL == url && i.ProtocolBinding == binding {
				return
			}
		}
		out.SupportedInterfaces = append(out.SupportedInterfaces, &a2a.AgentInterface{URL: url, ProtocolBinding: binding, ProtocolVersion: version})
	}
	if url != "" {
		if preferred == "" {
			preferred = "JSONRPC" // 0.3's default transport
		}
		add(url, preferred)
	}
	for _, a := range additional {
		add(a[0], a[1])
	}
	if extended {
		if out.Capabilities == nil {
			out.Capabilities = &a2a.AgentCapabilities{}
		}
		supports := true
		out.Capabilities.ExtendedAgentCard = &supports
	}
}

// fixFromV03AgentSkill moves a skill's 0.3 "security" to 1.0's
// requirements.
func fixFromV03AgentSkill(x *a2av03.AgentSkill, out *a2a.AgentSkill) error {
	out.SecurityRequirements = securityFromV03(x.Security)
	return nil
}

func securityFromV03(reqs []map[string][]string) []*a2a.SecurityRequirement {
	var out []*a2a.SecurityRequirement
	for _, r := range reqs {
		req := &a2a.SecurityRequirement{Schemes: map[string]*a2a.StringList{}}
		for name, scopes := range r {
			req.Schemes[name] = &a2a.StringList{List: scopes}
		}
		out = append(out, req)
	}
	return out
}

// fixFromV03APIKeySecurityScheme carries 0.3's "in" as 1.0's "location".
func fixFromV03APIKeySecurityScheme(x *a2av03.APIKeySecurityScheme, out *a2a.APIKeySecurityScheme) error {
	out.Location = string(x.In)
	return nil
}

// fixToV03MessageSendConfiguration writes 1.0's "returnImmediately" as
// 0.3's "blocking", and its task push config as 0.3's push config.
func fixToV03MessageSendConfiguration(x *a2a.SendMessageConfiguration, out *a2av03.MessageSendConfiguration) {
	blocking := !x.ReturnImmediately
	out.Blocking = &blocking
	if x.TaskPushNotificationConfig != nil {
		push := pushToV03(x.TaskPushNotificationConfig)
		out.PushNotificationConfig = &push
	}
}

// fixToV03TaskState writes the state 1.0 leaves unspecified as 0.3's
// "unknown", the one 0.3 value 1.0 has no name for.
func fixToV03TaskState(a2a.TaskState) a2av03.TaskState { return a2av03.TaskStateUnknown }

// fixFromV03TaskState reads 0.3's "unknown" as 1.0's unspecified state.
func fixFromV03TaskState(v a2av03.TaskState) (a2a.TaskState, error) {
	if v == a2av03.TaskStateUnknown {
		return a2a.TaskStateUnspecified, nil
	}
	return 0, &a2a.CompatError{Msg: "TaskState has no value " + strconv.Quote(string(v))}
}
