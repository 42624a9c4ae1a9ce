package runlog

import (
	"errors"
	"fmt"
	"strconv"
)

// An event id names a run's log and a position in it:
//
//	r1.<key>.<pos>
//
// r1 is the format's version; key is the run's key (KeyLen characters of
// base64url); pos is the entry's position, in decimal, no leading zero.
// An entry's position is 1 or more; position 0 stands before the run's
// first entry: the id of the run's start, which a client that has read no
// event yet resumes from (it then reads the whole log). An id is at most
// 3+KeyLen+1+19 bytes.

// idPrefix starts every id of this format.
const idPrefix = "r1."

// MaxIDLen is the length of the longest id.
const MaxIDLen = len(idPrefix) + KeyLen + 1 + 19

// ErrBadID is wrapped by ParseID's errors.
var ErrBadID = errors.New("runlog: not an event id of a resumable run")

// AppendID appends the id of position pos of run key to b.
func AppendID(b []byte, key string, pos int64) []byte {
	b = append(b, idPrefix...)
	b = append(b, key...)
	b = append(b, '.')
	return strconv.AppendInt(b, pos, 10)
}

// FormatID is the id AppendID appends, as a string.
func FormatID(key string, pos int64) string { return string(AppendID(nil, key, pos)) }

// ParseID reads an id AppendID wrote. Anything else (another format, a
// key of the wrong length or alphabet, a position that is not a decimal
// without leading zeros (0 is one: the run's start), or that overflows)
// is an error wrapping ErrBadID, which says what is wrong, never what the
// log holds.
func ParseID(id string) (key string, pos int64, err error) {
	if len(id) > MaxIDLen {
		return "", 0, fmt.Errorf("%w: longer than %d bytes", ErrBadID, MaxIDLen)
	}
	if len(id) < len(idPrefix) || id[:len(idPrefix)] != idPrefix {
		return "", 0, fmt.Errorf("%w: it does not start with %q", ErrBadID, idPrefix)
	}
	rest := id[len(idPrefix):]
	if len(rest) < KeyLen+2 || rest[KeyLen] != '.' {
		return "", 0, fmt.Errorf("%w: no run key of %d characters followed by a position", ErrBadID, KeyLen)
	}
	key, num := rest[:KeyLen], rest[KeyLen+1:]
	for i := 0; i < len(key); i++ {
		if !isKeyByte(key[i]) {
			return "", 0, fmt.Errorf("%w: the run key holds a character outside base64url", ErrBadID)
		}
	}
	if num[0] == '0' && len(num) > 1 {
		return "", 0, fmt.Errorf("%w: the position has a leading zero", ErrBadID)
	}
	for i := 0; i < len(num); i++ {
		if num[i] < '0' || num[i] > '9' {
			return "", 0, fmt.Errorf("%w: the position is not a decimal number", ErrBadID)
		}
	}
	pos, perr := strconv.ParseInt(num, 10, 64)
	if perr != nil {
		return "", 0, fmt.Errorf("%w: the position overflows", ErrBadID)
	}
	return key, pos, nil
}

func isKeyByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}
