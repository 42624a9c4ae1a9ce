package a2arpc

import (
	"strconv"
	"strings"
)

// The names of the bindings, as AgentInterface.protocolBinding carries them.
const (
	BindingJSONRPC  = "JSONRPC"
	BindingHTTPJSON = "HTTP+JSON"
	BindingGRPC     = "GRPC"
)

// Service parameters (A2A §3.2.6): HTTP headers, or gRPC metadata in lower
// case. The version may also come as a query parameter.
const (
	VersionHeader    = "A2A-Version"
	ExtensionsHeader = "A2A-Extensions"
)

// LegacyVersion is what a request without A2A-Version asks for (A2A §3.6.2).
const LegacyVersion = "0.3"

// ParseVersion reads a protocol version: Major.Minor, with a patch number
// allowed and ignored (versions are never negotiated by patch). It returns
// the Major.Minor form.
func ParseVersion(s string) (string, bool) {
	parts := strings.Split(strings.TrimSpace(s), ".")
	if len(parts) < 2 || len(parts) > 3 {
		return "", false
	}
	for _, p := range parts {
		if _, err := strconv.ParseUint(p, 10, 16); err != nil {
			return "", false
		}
	}
	major, _ := strconv.ParseUint(parts[0], 10, 16)
	minor, _ := strconv.ParseUint(parts[1], 10, 16)
	return strconv.FormatUint(major, 10) + "." + strconv.FormatUint(minor, 10), true
}

// NegotiateVersion picks the version a call is served in: requested (the
// A2A-Version value, empty when absent) must name one of supported, patch
// ignored. An absent value means LegacyVersion unless absentAs says
// otherwise. A failure is ErrVersionNotSupported, whose message says what
// the request asked for and which header to send instead.
func NegotiateVersion(requested string, supported []string, absentAs string) (string, *RPCError) {
	v := requested
	if strings.TrimSpace(v) == "" {
		v = absentAs
		if v == "" {
			v = LegacyVersion
		}
	}
	mm, ok := ParseVersion(v)
	if ok {
		for _, s := range supported {
			if s == mm {
				return mm, nil
			}
		}
	}
	if strings.TrimSpace(requested) == "" && absentAs == "" {
		return "", MissingVersion("", supported)
	}
	return "", NewError(ErrVersionNotSupported, "the requested A2A protocol version '"+v+
		"' is not supported; this agent speaks "+strings.Join(supported, ", ")+sendHeader(supported))
}

// MissingVersion is the error for a call that names no A2A-Version where
// the version it is read as (LegacyVersion, A2A §3.6.2) is not served: it
// says so, and which header to send. what names the call when it is known
// to be one of this version's ("SendMessage", "POST /message:send"), so the
// client learns that it called the right method with the wrong version.
func MissingVersion(what string, supported []string) *RPCError {
	msg := "this request names no " + VersionHeader + ", which A2A reads as version " + LegacyVersion +
		" (A2A §3.6.2), and this agent speaks " + strings.Join(supported, ", ") + " here"
	if what != "" {
		msg = what + " is an A2A " + NewestVersion(supported) + " method, but this request names no " + VersionHeader +
			", which A2A reads as version " + LegacyVersion + " (A2A §3.6.2)"
	}
	return NewError(ErrVersionNotSupported, msg+sendHeader(supported))
}

// sendHeader is the end of a version error: the header to send.
func sendHeader(supported []string) string {
	if v := NewestVersion(supported); v != "" {
		return ": send the header " + VersionHeader + ": " + v
	}
	return ""
}

// NewestVersion is the newest of versions (Major.Minor), or "" when there
// are none.
func NewestVersion(versions []string) string {
	newest := ""
	key := func(v string) (uint64, uint64) {
		major, minor, _ := strings.Cut(v, ".")
		a, _ := strconv.ParseUint(major, 10, 16)
		b, _ := strconv.ParseUint(minor, 10, 16)
		return a, b
	}
	for _, v := range versions {
		if newest == "" {
			newest = v
			continue
		}
		a, b := key(v)
		na, nb := key(newest)
		if a > na || (a == na && b > nb) {
			newest = v
		}
	}
	return newest
}

// SplitList reads a comma-separated header value (A2A-Extensions).
func SplitList(values []string) []string {
	var out []string
	for _, v := range values {
		for _, item := range strings.Split(v, ",") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
	}
	return out
}
