package wire

import (
	"errors"
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
	"google.golang.org/protobuf/types/known/typepb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// readOne reads doc, a single JSON value, with read.
func readOne[T any](doc string, read func(r *Reader) T) (T, *Error) {
	r := NewReader([]byte(doc), Decoder{})
	v := read(r)
	r.End()
	err := r.err
	r.Release()
	return v, err
}

func protojsonText(t *testing.T, m proto.Message) string {
	t.Helper()
	out, err := protojson.Marshal(m)
	if err != nil {
		t.Fatalf("protojson.Marshal(%v): %v", m, err)
	}
	return string(out)
}

var edgeInt64s = []int64{0, 1, -1, 9, 10, 127, 128, -128, math.MaxInt32, math.MinInt32, math.MaxInt32 + 1, math.MinInt32 - 1,
	1 << 53, 1<<53 + 1, -(1 << 53) - 1, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1}

func TestAppendInt64StringMatchesProtojson(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vals := append([]int64{}, edgeInt64s...)
	for range 200 {
		vals = append(vals, int64(rng.Uint64()), rng.Int64N(1000000)-500000)
	}
	for _, v := range vals {
		if got, want := string(AppendInt64String(nil, v)), protojsonText(t, wrapperspb.Int64(v)); got != want {
			t.Errorf("appendInt64String(%d) = %s, protojson %s", v, got, want)
		}
		u := uint64(v)
		if got, want := string(AppendUint64String(nil, u)), protojsonText(t, wrapperspb.UInt64(u)); got != want {
			t.Errorf("appendUint64String(%d) = %s, protojson %s", u, got, want)
		}
	}
	if got := string(AppendUint64String(nil, math.MaxUint64)); got != `"18446744073709551615"` {
		t.Errorf("appendUint64String(MaxUint64) = %s", got)
	}
}

func TestAppendDoubleMatchesProtojson(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 0.2, 0.3, 1.5, -2.25, 100, 1e6, 1e20, 1e21, -1e21, 1.5e21, 1e22, 9.999999999999999e20,
		1e-6, 1e-7, -1e-7, 1.5e-7, 9.99999e-7, 123456789012, 1 << 53, 1<<53 + 2, math.MaxFloat64, -math.MaxFloat64,
		math.SmallestNonzeroFloat64, 2.2250738585072014e-308, math.Pi, math.E, 1e100, 1e-100, 1e300, 1e-300,
		math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat32, math.SmallestNonzeroFloat32}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		vals = append(vals, math.Float64frombits(rng.Uint64()), rng.NormFloat64()*math.Pow(10, float64(rng.IntN(60)-30)))
	}
	for _, v := range vals {
		if got, want := string(AppendDouble(nil, v)), protojsonText(t, wrapperspb.Double(v)); got != want {
			t.Errorf("appendDouble(%v) = %s, protojson %s", v, got, want)
		}
	}
	for _, s := range [][2]string{{"NaN", `"NaN"`}, {"+Inf", `"Infinity"`}, {"-Inf", `"-Infinity"`}, {"-0", "-0"}, {"1e21", "1e+21"}, {"1e-7", "1e-7"}} {
		f, _ := strconv.ParseFloat(s[0], 64)
		if got := string(AppendDouble(nil, f)); got != s[1] {
			t.Errorf("appendDouble(%s) = %s, want %s", s[0], got, s[1])
		}
	}
}

func TestAppendFloat32MatchesProtojson(t *testing.T) {
	vals := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.1, 0.2, 1.5, 16777216, 16777217, 1e20, 1e21, 1e22, -1e21, 1e-6, 1e-7,
		9.999999e-7, math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, 1.1754944e-38, 3.4e38,
		float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 123456.789}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		vals = append(vals, math.Float32frombits(rng.Uint32()), float32(rng.NormFloat64()*math.Pow(10, float64(rng.IntN(40)-20))))
	}
	for _, v := range vals {
		if got, want := string(AppendFloat32(nil, v)), protojsonText(t, wrapperspb.Float(v)); got != want {
			t.Errorf("appendFloat32(%v) = %s, protojson %s", v, got, want)
		}
	}
}

func TestAppendBytesMatchesProtojson(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for n := range 40 {
		v := make([]byte, n)
		for i := range v {
			v[i] = byte(rng.Uint32())
		}
		if got, want := string(AppendBytes(nil, v)), protojsonText(t, wrapperspb.Bytes(v)); got != want {
			t.Errorf("appendBytes(%x) = %s, protojson %s", v, got, want)
		}
	}
	if got := string(AppendBytes(nil, []byte{0xfb, 0xff})); got != `"+/8="` {
		t.Errorf("appendBytes uses the wrong alphabet or padding: %s", got)
	}
}

func TestAppendTimestampMatchesProtojson(t *testing.T) {
	times := []time.Time{
		time.Unix(0, 0),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(2024, 2, 29, 12, 34, 56, 0, time.UTC),
		time.Date(2024, 2, 29, 12, 34, 56, 100000000, time.UTC),
		time.Date(2024, 2, 29, 12, 34, 56, 120000000, time.UTC),
		time.Date(2024, 2, 29, 12, 34, 56, 123000000, time.UTC),
		time.Date(2024, 2, 29, 12, 34, 56, 123400000, time.UTC),
		time.Date(2024, 2, 29, 12, 34, 56, 123456000, time.UTC),
		time.Date(2024, 2, 29, 12, 34, 56, 123456700, time.UTC),
		time.Date(2024, 2, 29, 12, 34, 56, 123456789, time.UTC),
		time.Date(2024, 2, 29, 12, 34, 56, 1, time.UTC),
		time.Date(2024, 2, 29, 12, 34, 56, 1000, time.UTC),
		time.Date(2024, 2, 29, 12, 34, 56, 1000000, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 500000000, time.UTC),
		time.Date(2024, 6, 1, 8, 0, 0, 5000, time.FixedZone("x", 5*3600+30*60)),
		time.Date(1, 1, 1, 0, 30, 0, 0, time.FixedZone("y", -3600)),
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for range 500 {
		secs := minTimestampSeconds + rng.Int64N(maxTimestampSeconds-minTimestampSeconds+1)
		ns := rng.Int64N(1e9)
		switch rng.IntN(4) {
		case 0:
			ns = 0
		case 1:
			ns -= ns % 1e6
		case 2:
			ns -= ns % 1e3
		}
		times = append(times, time.Unix(secs, ns))
	}
	for _, tm := range times {
		if got, want := string(AppendTimestamp(nil, tm)), protojsonText(t, timestamppb.New(tm)); got != want {
			t.Errorf("appendTimestamp(%v) = %s, protojson %s", tm, got, want)
		}
		if err := CheckTimestamp("t", tm); err != nil {
			t.Errorf("checkTimestamp(%v) = %v", tm, err)
		}
	}
}

func TestCheckTimestamp(t *testing.T) {
	for _, c := range []struct {
		t    time.Time
		rule string
	}{
		{time.Date(0, 12, 31, 23, 59, 59, 999999999, time.UTC), "minimum"},
		{time.Date(1, 1, 1, 0, 0, 0, 0, time.FixedZone("", 60)), "minimum"},
		{time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), "maximum"},
		{time.Date(9999, 12, 31, 23, 59, 59, 0, time.FixedZone("", -60)), "maximum"},
	} {
		err := CheckTimestamp("at", c.t)
		if err == nil || err.Rule != c.rule || err.Path != "/at" || err.Offset != -1 {
			t.Errorf("checkTimestamp(%v) = %#v, want rule %s at /at", c.t, err, c.rule)
		}
		if _, perr := protojson.Marshal(timestamppb.New(c.t)); perr == nil {
			t.Errorf("protojson accepts %v", c.t)
		}
	}
}

// JSON texts of integers, for the parity tables.
var intDocs = []string{
	`0`, `-0`, `1`, `-1`, `1.0`, `1.5`, `-1.5`, `1e2`, `1E2`, `1e+2`, `1e-2`, `100e-2`, `10e-1`, `0.5e1`, `-0.0`, `0.0e5`,
	`1.50e1`, `15e-1`, `0.00001e5`, `123.456e3`, `123.4560e3`, `-123.456e2`,
	`127`, `128`, `255`, `256`, `2147483647`, `2147483648`, `-2147483648`, `-2147483649`, `2.147483647e9`, `2147483647.0000`,
	`4294967295`, `4294967296`, `-4294967295`, `9223372036854775807`, `9223372036854775808`, `-9223372036854775808`,
	`-9223372036854775809`, `9.223372036854775807e18`, `9223372036854775807e0`, `18446744073709551615`, `18446744073709551616`,
	`-18446744073709551615`, `1e18`, `1e19`, `1e20`, `-1e19`, `0.01e21`, `0.1e20`, `10e18`, `100000000000000000000e-2`,
	`1e99999999999`, `0e99999999999`, `0.0e-99999999999`, `1e-99999999999`, `1e2147483647`, `1e2147483648`, `1e-2147483648`,
	`00`, `01`, `-`, `1e`, `1.`, `.5`, `+1`, `1e+`, `--1`, `0x10`, `1_000`, `Infinity`, `NaN`,
	`"0"`, `"-0"`, `"1"`, `"-1"`, `"1.0"`, `"1.5"`, `"1e2"`, `"-1e2"`, `"2147483648"`, `"-2147483649"`, `"4294967296"`,
	`"9223372036854775807"`, `"9223372036854775808"`, `"-9223372036854775808"`, `"18446744073709551615"`, `"18446744073709551616"`,
	`" 1"`, `"1 "`, `"\t1"`, `"1\n"`, `"1\u00a0"`, `"0x10"`, `"+1"`, `"01"`, `"1."`, `".5"`, `""`, `"abc"`, `"NaN"`, `"Infinity"`,
	`"\u0031\u0032"`, `"1,"`, `"[1]"`, `"\"1\""`, `"1e"`, `"-"`, `"1 2"`,
	`true`, `false`, `null`, `[]`, `[1]`, `{}`, `"`, `1 1`,
}

func TestReadIntegersMatchProtojson(t *testing.T) {
	type kind struct {
		name  string
		proto func(doc string) (string, error)
		ours  func(doc string) (string, *Error)
	}
	kinds := []kind{
		{"int32", func(doc string) (string, error) {
			var m wrapperspb.Int32Value
			err := protojson.Unmarshal([]byte(doc), &m)
			return strconv.FormatInt(int64(m.Value), 10), err
		}, func(doc string) (string, *Error) {
			v, err := readOne(doc, (*Reader).ReadInt32)
			return strconv.FormatInt(int64(v), 10), err
		}},
		{"int64", func(doc string) (string, error) {
			var m wrapperspb.Int64Value
			err := protojson.Unmarshal([]byte(doc), &m)
			return strconv.FormatInt(m.Value, 10), err
		}, func(doc string) (string, *Error) {
			v, err := readOne(doc, (*Reader).ReadInt64)
			return strconv.FormatInt(v, 10), err
		}},
		{"uint32", func(doc string) (string, error) {
			var m wrapperspb.UInt32Value
			err := protojson.Unmarshal([]byte(doc), &m)
			return strconv.FormatUint(uint64(m.Value), 10), err
		}, func(doc string) (string, *Error) {
			v, err := readOne(doc, (*Reader).ReadUint32)
			return strconv.FormatUint(uint64(v), 10), err
		}},
		{"uint64", func(doc string) (string, error) {
			var m wrapperspb.UInt64Value
			err := protojson.Unmarshal([]byte(doc), &m)
			return strconv.FormatUint(m.Value, 10), err
		}, func(doc string) (string, *Error) {
			v, err := readOne(doc, (*Reader).ReadUint64)
			return strconv.FormatUint(v, 10), err
		}},
	}
	docs := append([]string{}, intDocs...)
	for _, v := range edgeInt64s {
		docs = append(docs, strconv.FormatInt(v, 10), strconv.Quote(strconv.FormatInt(v, 10)), strconv.FormatUint(uint64(v), 10))
	}
	accepted := 0
	for _, k := range kinds {
		for _, doc := range docs {
			want, perr := k.proto(doc)
			got, err := k.ours(doc)
			switch {
			case (perr == nil) != (err == nil):
				t.Errorf("%s %s: protojson error %v, ours %v", k.name, doc, perr, err)
			case err == nil && got != want:
				t.Errorf("%s %s: got %s, protojson %s", k.name, doc, got, want)
			case err == nil:
				accepted++
			case err.Rule != "type" && err.Rule != "minimum" && err.Rule != "maximum" && err.Rule != "syntax":
				t.Errorf("%s %s: unexpected rule %q", k.name, doc, err.Rule)
			}
		}
	}
	if accepted < 100 {
		t.Errorf("only %d cases accepted; the table is not testing much", accepted)
	}
}

func TestReadIntegerErrorRules(t *testing.T) {
	for _, c := range []struct {
		doc  string
		read func(r *Reader) int64
		rule string
	}{
		{`1.5`, func(r *Reader) int64 { return int64(r.ReadInt32()) }, "type"},
		{`"x"`, func(r *Reader) int64 { return int64(r.ReadInt32()) }, "type"},
		{`true`, func(r *Reader) int64 { return int64(r.ReadInt32()) }, "type"},
		{`2147483648`, func(r *Reader) int64 { return int64(r.ReadInt32()) }, "maximum"},
		{`"-2147483649"`, func(r *Reader) int64 { return int64(r.ReadInt32()) }, "minimum"},
		{`1e30`, (*Reader).ReadInt64, "maximum"},
		{`-1e30`, (*Reader).ReadInt64, "minimum"},
		{`9223372036854775808`, (*Reader).ReadInt64, "maximum"},
		{`-1`, func(r *Reader) int64 { return int64(r.ReadUint32()) }, "minimum"},
		{`4294967296`, func(r *Reader) int64 { return int64(r.ReadUint32()) }, "maximum"},
		{`"-1"`, func(r *Reader) int64 { return int64(r.ReadUint64()) }, "minimum"},
		{`18446744073709551616`, func(r *Reader) int64 { return int64(r.ReadUint64()) }, "maximum"},
		{`1e-99999999999`, (*Reader).ReadInt64, "type"},
		{`1e99999999999`, (*Reader).ReadInt64, "maximum"},
		{`1.`, (*Reader).ReadInt64, "syntax"},
	} {
		_, err := readOne(c.doc, c.read)
		if err == nil || err.Rule != c.rule {
			t.Errorf("%s: error %v, want rule %s", c.doc, err, c.rule)
		}
	}
}

func TestProtoReadErrorsNameThePath(t *testing.T) {
	readInt64To := func(v *int64, r *Reader) { *v = r.ReadInt64() }
	for doc, want := range map[string]string{
		`{"a":[1,"2",3.5]}`:             "/a/2",
		`{"a":[1,"2","x"]}`:             "/a/2",
		`{"b":1,"a":[true]}`:            "/a/0",
		`{"a":["9223372036854775808"]}`: "/a/0",
	} {
		r := NewReader([]byte(doc), Decoder{})
		if r.BeginObject() {
			for r.NextField() {
				if string(r.Key()) == "a" {
					ReadSlice(r, readInt64To)
				} else {
					r.Skip()
				}
			}
		}
		err := r.err
		r.Release()
		if err == nil || err.Path != want {
			t.Errorf("%s: error %v, want one at %s", doc, err, want)
		}
	}
}

var floatDocs = []string{
	`0`, `-0`, `1`, `-1.5`, `0.1`, `1e2`, `1E-2`, `1e308`, `1.7976931348623157e308`, `1.7976931348623159e308`, `1e309`, `1e400`,
	`-1e400`, `1e-400`, `4.9e-324`, `2e-324`, `3.4028234663852886e38`, `3.4028235e38`, `3.40282356e38`, `3.4028236e38`, `3.5e38`,
	`-3.5e38`, `1e39`, `1.401298464324817e-45`, `7e-46`, `1e-46`, `123456789012345678901234567890`,
	`"NaN"`, `"Infinity"`, `"-Infinity"`, `"nan"`, `"inf"`, `"+Infinity"`, `"infinity"`, `" NaN"`, `"1"`, `"-1.5"`, `"1e5"`,
	`"1e400"`, `"3.5e38"`, `" 1"`, `"1 "`, `"0x1p3"`, `"1_0"`, `"-0"`, `"01"`, `"1."`, `".5"`, `""`, `"+1"`, `"1e"`, `"\u0031"`,
	`NaN`, `Infinity`, `-Infinity`, `01`, `1.`, `.5`, `+1`, `-`, `true`, `null`, `[]`, `{}`, `"`,
}

func TestReadFloatsMatchProtojson(t *testing.T) {
	same := func(a, b float64) bool {
		if math.IsNaN(a) || math.IsNaN(b) {
			return math.IsNaN(a) && math.IsNaN(b)
		}
		return math.Float64bits(a) == math.Float64bits(b)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	docs := append([]string{}, floatDocs...)
	for range 300 {
		f := math.Float64frombits(rng.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		text := strconv.FormatFloat(f, 'g', -1, 64)
		docs = append(docs, text, strconv.Quote(text), strconv.FormatFloat(float64(float32(f)), 'g', -1, 32))
	}
	for _, doc := range docs {
		var d wrapperspb.DoubleValue
		perr := protojson.Unmarshal([]byte(doc), &d)
		got, err := readOne(doc, (*Reader).ReadDouble)
		if (perr == nil) != (err == nil) || err == nil && !same(got, d.Value) {
			t.Errorf("double %s: got %v (%v), protojson %v (%v)", doc, got, err, d.Value, perr)
		}
		var f wrapperspb.FloatValue
		perr = protojson.Unmarshal([]byte(doc), &f)
		got32, err := readOne(doc, (*Reader).ReadFloat32)
		if (perr == nil) != (err == nil) || err == nil && !same(float64(got32), float64(f.Value)) {
			t.Errorf("float %s: got %v (%v), protojson %v (%v)", doc, got32, err, f.Value, perr)
		}
	}
	if _, err := readOne(`-1e400`, (*Reader).ReadDouble); err == nil || err.Rule != "minimum" {
		t.Errorf("-1e400: %v, want a minimum error", err)
	}
	if _, err := readOne(`"3.5e38"`, (*Reader).ReadFloat32); err == nil || err.Rule != "maximum" {
		t.Errorf(`"3.5e38" as float: %v, want a maximum error`, err)
	}
}

// Round trips: what AppendDouble and AppendFloat32 write reads back the same.
func TestProtoFloatRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for range 2000 {
		f := math.Float64frombits(rng.Uint64())
		got, err := readOne(string(AppendDouble(nil, f)), (*Reader).ReadDouble)
		if err != nil || math.Float64bits(got) != math.Float64bits(f) && !(math.IsNaN(f) && math.IsNaN(got)) {
			t.Fatalf("double %v read back as %v (%v)", f, got, err)
		}
		g := math.Float32frombits(rng.Uint32())
		got32, err := readOne(string(AppendFloat32(nil, g)), (*Reader).ReadFloat32)
		if err != nil || math.Float32bits(got32) != math.Float32bits(g) && !(g != g && got32 != got32) {
			t.Fatalf("float %v read back as %v (%v)", g, got32, err)
		}
	}
}

func TestReadBytesMatchesProtojson(t *testing.T) {
	docs := []string{`""`, `"AQID"`, `"AQI="`, `"AQI"`, `"AQ=="`, `"AQ="`, `"AQ"`, `"A"`, `"A==="`, `"-_-_"`, `"+/+/"`, `"-_8"`,
		`"+/8"`, `"+/8="`, `"-_8="`, `"+-AA"`, `"/_AA"`, `"AR=="`, `"AQJ="`, `"YQ==YQ=="`, `"AQID\n"`, `"AQ\nID"`, `"AQ\r\nID"`,
		`"AQ ID"`, `"!!!!"`, `"AQID="`, `"=AQI"`, `"\u0041QID"`, `"aGVsbG8gd29ybGQ"`, `"aGVsbG8gd29ybGQ="`, `1`, `null`, `[]`, `true`}
	rng := rand.New(rand.NewPCG(15, 16))
	for n := range 20 {
		v := make([]byte, n)
		for i := range v {
			v[i] = byte(rng.Uint32())
		}
		docs = append(docs, string(AppendBytes(nil, v)))
	}
	for _, doc := range docs {
		var m wrapperspb.BytesValue
		perr := protojson.Unmarshal([]byte(doc), &m)
		got, err := readOne(doc, (*Reader).ReadBytes)
		if (perr == nil) != (err == nil) || err == nil && string(got) != string(m.Value) {
			t.Errorf("bytes %s: got %x (%v), protojson %x (%v)", doc, got, err, m.Value, perr)
		}
		if err != nil && err.Rule != "type" {
			t.Errorf("bytes %s: rule %q, want type", doc, err.Rule)
		}
	}
}

var timestampDocs = []string{
	`"1970-01-01T00:00:00Z"`, `"2024-02-29T12:34:56.789Z"`, `"2024-02-29T12:34:56.7Z"`, `"2024-02-29T12:34:56.123456789Z"`,
	`"2024-02-29T12:34:56.1234567891Z"`, `"2024-02-29T12:34:56.000000000Z"`, `"2024-02-29T12:34:56.Z"`, `"2023-02-29T00:00:00Z"`,
	`"0001-01-01T00:00:00Z"`, `"0000-12-31T23:59:59Z"`, `"0001-01-01T00:00:00+00:01"`, `"0001-01-01T00:00:00-00:01"`,
	`"9999-12-31T23:59:59.999999999Z"`, `"9999-12-31T23:59:59Z"`, `"9999-12-31T23:59:59-00:01"`, `"9999-12-31T23:59:59+01:00"`,
	`"10000-01-01T00:00:00Z"`, `"2024-01-01T00:00:00+01:00"`, `"2024-01-01T00:00:00-23:59"`, `"2024-01-01T00:00:00+23:59"`,
	`"2024-01-01T00:00:00+24:00"`, `"2024-01-01T00:00:00+01:60"`, `"2024-01-01T00:00:00+0100"`, `"2024-01-01T00:00:00+01"`,
	`"2024-01-01t00:00:00z"`, `"2024-01-01T00:00:00z"`, `"2024-01-01T00:00:00"`, `"2024-01-01 00:00:00Z"`, `"2024-01-01"`,
	`"2024-01-01T1:00:00Z"`, `"2024-01-01T00:0:00Z"`, `"2024-1-01T00:00:00Z"`, `"2024-01-01T00:00:00,5Z"`,
	`"2024-01-01T00:00:00,1234567891Z"`, `"2024-01-01T24:00:00Z"`, `"2024-01-01T00:60:00Z"`, `"2024-01-01T00:00:60Z"`,
	`"2024-13-01T00:00:00Z"`, `"2024-00-01T00:00:00Z"`, `"2024-01-32T00:00:00Z"`, `"2024-01-01T00:00:00.123+05:30"`,
	`"2024-01-01T00:00:00.123456789012-05:30"`, `" 2024-01-01T00:00:00Z"`, `"2024-01-01T00:00:00Z "`, `"+2024-01-01T00:00:00Z"`,
	`"2024-01-01T00:00:00ZZ"`, `"2024-01-01T00:00:00.5.5Z"`, `"1970-01-01T00:00:00\u005a"`, `""`, `1`, `null`, `{}`, `[]`,
}

func TestReadTimestampMatchesProtojson(t *testing.T) {
	docs := append([]string{}, timestampDocs...)
	rng := rand.New(rand.NewPCG(17, 18))
	for range 300 {
		tm := time.Unix(minTimestampSeconds+rng.Int64N(maxTimestampSeconds-minTimestampSeconds+1), rng.Int64N(1e9))
		docs = append(docs, string(AppendTimestamp(nil, tm)),
			strconv.Quote(tm.In(time.FixedZone("", (rng.IntN(48)-24)*1800)).Format(time.RFC3339Nano)))
	}
	accepted := 0
	for _, doc := range docs {
		var m timestamppb.Timestamp
		perr := protojson.Unmarshal([]byte(doc), &m)
		got, err := readOne(doc, (*Reader).ReadTimestamp)
		switch {
		case (perr == nil) != (err == nil):
			t.Errorf("timestamp %s: got %v (%v), protojson %v (%v)", doc, got, err, m.AsTime(), perr)
		case err == nil && (got.Unix() != m.Seconds || int32(got.Nanosecond()) != m.Nanos):
			t.Errorf("timestamp %s: got %v, protojson %v", doc, got, m.AsTime())
		case err == nil && got.Location() != time.UTC:
			t.Errorf("timestamp %s: location %v, want UTC", doc, got.Location())
		case err == nil:
			accepted++
		case err.Rule != "type" && err.Rule != "minimum" && err.Rule != "maximum":
			t.Errorf("timestamp %s: rule %q", doc, err.Rule)
		}
	}
	if accepted < 300 {
		t.Errorf("only %d timestamps accepted", accepted)
	}
	for doc, rule := range map[string]string{`"0000-12-31T23:59:59Z"`: "minimum", `"9999-12-31T23:59:59-00:01"`: "maximum",
		`"2024-02-29T12:34:56.1234567891Z"`: "type", `"yesterday"`: "type", `5`: "type"} {
		if _, err := readOne(doc, (*Reader).ReadTimestamp); err == nil || err.Rule != rule {
			t.Errorf("timestamp %s: %v, want rule %s", doc, err, rule)
		}
	}
}

func TestReadEnumMatchesProtojson(t *testing.T) {
	type result struct {
		name     string
		number   int32
		isNumber bool
	}
	read := func(r *Reader) result {
		n, num, isNum := r.ReadEnum()
		return result{string(n), num, isNum}
	}
	for _, doc := range []string{`0`, `1`, `2`, `7`, `-1`, `-0`, `1.0`, `1e1`, `1.5`, `2147483647`, `2147483648`, `-2147483648`,
		`-2147483649`, `1e99999999999`, `"SYNTAX_PROTO3"`, `"SYNTAX_EDITIONS"`, `"\u0053YNTAX_PROTO2"`, `"syntax_proto3"`, `"1"`,
		`""`, `true`, `false`, `[]`, `{}`, `[1]`, `01`} {
		var m typepb.Type
		perr := protojson.Unmarshal([]byte(`{"syntax":`+doc+`}`), &m)
		got, err := readOne(doc, read)
		if strings.HasPrefix(doc, `"`) {
			// A name: ours returns it for the caller to look up.
			want, _ := strconv.Unquote(doc)
			if err != nil || got.isNumber || got.name != want {
				t.Errorf("enum %s: got %+v (%v)", doc, got, err)
			}
			if v, ok := typepb.Syntax_value[want]; (perr == nil) != ok || ok && int32(m.Syntax) != v {
				t.Errorf("enum %s: protojson %v", doc, perr)
			}
			continue
		}
		switch {
		case (perr == nil) != (err == nil):
			t.Errorf("enum %s: got %+v (%v), protojson %v (%v)", doc, got, err, m.Syntax, perr)
		case err == nil && (!got.isNumber || got.number != int32(m.Syntax)):
			t.Errorf("enum %s: got %+v, protojson %d", doc, got, m.Syntax)
		}
	}
	if _, err := readOne(`null`, read); err == nil || err.Rule != "type" {
		t.Errorf("enum null: %v, want a type error (skipNull comes first)", err)
	}
}

func TestSkipNull(t *testing.T) {
	var m typepb.Type
	if err := protojson.Unmarshal([]byte(`{"syntax":null,"name":null}`), &m); err != nil || m.Syntax != 0 || m.Name != "" {
		t.Fatalf("protojson reads null as the default: %v %v", &m, err)
	}
	r := NewReader([]byte(` null , 5`), Decoder{})
	if !r.SkipNull() || r.err != nil {
		t.Fatalf("skipNull on null: %v", r.err)
	}
	r.skipSpace()
	r.pos++ // ','
	if r.SkipNull() || r.ReadInt32() != 5 {
		t.Fatal("skipNull consumed a number")
	}
	r.Release()
	if _, err := readOne(`nul`, (*Reader).SkipNull); err == nil || !errors.Is(err, ErrSyntax) {
		t.Errorf("skipNull on nul: %v", err)
	}
}

// bareExponent matches a number whose exponent has no digits followed by a
// delimiter, such as "1e " or "[1e]": malformed JSON that protojson's
// tokenizer lets through, reading it for integer fields as if the "e" were
// not there. The reader refuses it as malformed.
var bareExponent = regexp.MustCompile(`[0-9][eE][+-]?([^0-9+-]|$)`)

func TestBareExponent(t *testing.T) {
	var m wrapperspb.Int32Value
	if err := protojson.Unmarshal([]byte(`1e `), &m); err != nil || m.Value != 1 {
		t.Logf("protojson no longer accepts 1e: %v", err)
	}
	if _, err := readOne(`1e `, (*Reader).ReadInt32); err == nil || err.Rule != "syntax" {
		t.Errorf("1e: %v, want a syntax error", err)
	}
}

// FuzzProtoScalars checks the scalar readers against protojson on any input:
// each accepts what protojson accepts, with the same value.
func FuzzProtoScalars(f *testing.F) {
	for _, docs := range [][]string{intDocs, floatDocs, timestampDocs} {
		for _, doc := range docs {
			f.Add(doc)
		}
	}
	f.Add(`"AQID"`)
	f.Add(`"-_8"`)
	f.Fuzz(func(t *testing.T, doc string) {
		check := func(kind string, m proto.Message, protoValue func() string, read func(r *Reader) string) {
			perr := protojson.Unmarshal([]byte(doc), m)
			got, err := readOne(doc, read)
			if perr == nil && err != nil && err.Rule == "syntax" && bareExponent.MatchString(doc) {
				return // protojson's bug, see bareExponent
			}
			if (perr == nil) != (err == nil) {
				t.Fatalf("%s %q: ours %q (%v), protojson %v", kind, doc, got, err, perr)
			}
			if err == nil && got != protoValue() {
				t.Fatalf("%s %q: ours %q, protojson %q", kind, doc, got, protoValue())
			}
		}
		var i32 wrapperspb.Int32Value
		check("int32", &i32, func() string { return strconv.FormatInt(int64(i32.Value), 10) },
			func(r *Reader) string { return strconv.FormatInt(int64(r.ReadInt32()), 10) })
		var i64 wrapperspb.Int64Value
		check("int64", &i64, func() string { return strconv.FormatInt(i64.Value, 10) },
			func(r *Reader) string { return strconv.FormatInt(r.ReadInt64(), 10) })
		var u32 wrapperspb.UInt32Value
		check("uint32", &u32, func() string { return strconv.FormatUint(uint64(u32.Value), 10) },
			func(r *Reader) string { return strconv.FormatUint(uint64(r.ReadUint32()), 10) })
		var u64 wrapperspb.UInt64Value
		check("uint64", &u64, func() string { return strconv.FormatUint(u64.Value, 10) },
			func(r *Reader) string { return strconv.FormatUint(r.ReadUint64(), 10) })
		var d wrapperspb.DoubleValue
		check("double", &d, func() string { return string(AppendDouble(nil, d.Value)) },
			func(r *Reader) string { return string(AppendDouble(nil, r.ReadDouble())) })
		var fl wrapperspb.FloatValue
		check("float", &fl, func() string { return string(AppendFloat32(nil, fl.Value)) },
			func(r *Reader) string { return string(AppendFloat32(nil, r.ReadFloat32())) })
		var by wrapperspb.BytesValue
		check("bytes", &by, func() string { return string(by.Value) },
			func(r *Reader) string { return string(r.ReadBytes()) })
		var ts timestamppb.Timestamp
		check("timestamp", &ts, func() string { return string(AppendTimestamp(nil, ts.AsTime())) },
			func(r *Reader) string { return string(AppendTimestamp(nil, r.ReadTimestamp())) })
	})
}
