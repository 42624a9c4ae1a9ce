package aguihttp

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseMajorMinor reads a protocol version, MAJOR.MINOR in decimal.
func ParseMajorMinor(v string) ([2]int, bool) {
	major, minor, ok := strings.Cut(v, ".")
	if !ok {
		return [2]int{}, false
	}
	a, err1 := strconv.Atoi(major)
	b, err2 := strconv.Atoi(minor)
	if err1 != nil || err2 != nil || a < 0 || b < 0 || strings.HasPrefix(major, "+") || strings.HasPrefix(minor, "+") {
		return [2]int{}, false
	}
	return [2]int{a, b}, true
}

// CompareMajorMinor orders two versions ParseMajorMinor read, as cmp.Compare
// does.
func CompareMajorMinor(a, b [2]int) int {
	if a[0] != b[0] {
		return a[0] - b[0]
	}
	return a[1] - b[1]
}

// StreamVersion is the version a run's events are written in for a client
// whose input declared declared, when it is one of earlier, the earlier
// versions the package was generated to serve (oldest first); "" means
// ours, the package's own version.
//
// A client has every event and member of each version up to its own, so
// it gets the latest earlier version no later than its own. One older than
// every earlier version known, or one that declares none (clients declared
// their version from 1.0 on), gets the oldest: what it lacks besides cannot
// be told. A client of this version or a later one, or one whose version
// cannot be read, gets this version.
func StreamVersion(declared *string, earlier []string, ours string) string {
	if len(earlier) == 0 {
		return ""
	}
	if declared == nil {
		return earlier[0]
	}
	client, ok := ParseMajorMinor(*declared)
	own, _ := ParseMajorMinor(ours)
	if !ok || CompareMajorMinor(client, own) >= 0 {
		return ""
	}
	best := earlier[0]
	for _, v := range earlier {
		if mm, _ := ParseMajorMinor(v); CompareMajorMinor(mm, client) <= 0 {
			best = v
		}
	}
	return best
}

// ProtoTransportFor reports whether a client whose input declared declared
// can read the protobuf transport: the frames are numbered by the
// protobuf ledger, which a client has from 1.0 on, the first version that
// declares itself. A client that declares no version has an older
// protobuf schema, which lacks messages this version sends (@ag-ui/proto
// 0.0.59 has no REASONING_* messages), and reads SSE, which it picks by
// the Content-Type, as every client does.
func ProtoTransportFor(declared *string) bool { return declared != nil }

// ProducerVersionWarning judges a producer's declared protocol version
// theirs against a consumer's ours: "" when it is the same or an older
// minor of the same major, else the warning to give (a newer minor,
// another major, or something that is not MAJOR.MINOR is served anyway).
func ProducerVersionWarning(theirs, ours string) string {
	if theirs == ours {
		return ""
	}
	t, ok1 := ParseMajorMinor(theirs)
	o, ok2 := ParseMajorMinor(ours)
	switch {
	case !ok1 || !ok2:
		return fmt.Sprintf("cannot interpret the producer's protocolVersion %q; proceeding as %s", theirs, ours)
	case t[0] != o[0]:
		return fmt.Sprintf("the producer speaks protocol %s, a different major version from this client's %s; proceeding", theirs, ours)
	case t[1] > o[1]:
		return fmt.Sprintf("the producer speaks protocol %s, newer than this client's %s; proceeding, stripping what this version does not know", theirs, ours)
	}
	return ""
}
