package cardsig_test

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"errors"
	"testing"

	"github.com/agui-gen/agui-gen/runtime/cardsig"
)

// FuzzCanonical: any input is refused or made canonical: valid JSON, an
// object, with no signatures member, and its own canonical form.
func FuzzCanonical(f *testing.F) {
	for _, seed := range []string{card, `{}`, `null`, `[]`, `{"a":1e400}`, `{"a":-0}`, `{"a":1e-7,"b":123456789012345678901234567890}`,
		`{"signatures":[{"protected":"x"}],"a":[[],{},"",null]}`, `{"a":"\ud800"}`, `{"\u00e9":1,"e\u0301":2}`, `{"a":1} x`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := cardsig.Canonical(in)
		if err != nil {
			return
		}
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil || m == nil {
			t.Fatalf("Canonical(%q) = %q, not a JSON object: %v", in, out, err)
		}
		if _, ok := m["signatures"]; ok {
			t.Fatalf("Canonical(%q) = %q keeps the signatures", in, out)
		}
		again, err := cardsig.Canonical(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("Canonical(%q) = %q, but Canonical of that is %q, %v", in, out, again, err)
		}
	})
}

// FuzzVerify: no card and signature made up of the input verifies with a
// key the input does not hold, and none makes Verify panic.
func FuzzVerify(f *testing.F) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		f.Fatal(err)
	}
	good, err := cardsig.Sign([]byte(card), key, cardsig.SignOptions{KeyID: "k1"})
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(card), good.Protected, good.Signature)
	f.Add([]byte(`{}`), b64(`{"alg":"none"}`), "")
	f.Add([]byte(`{"name":"x"}`), b64(`{"alg":"ES256","kid":"k1","crit":["b64"],"b64":false}`), good.Signature)
	f.Add([]byte(card), good.Protected+"..", "..")
	f.Fuzz(func(t *testing.T, cardJSON []byte, protected, signature string) {
		// The fuzzer holds no key: only a signature copied from the seed
		// over the seed's card may verify.
		trusted := cardsig.StaticKeys(map[string]crypto.PublicKey{"k1": key.Public()})
		err := cardsig.Verify(context.Background(), cardJSON, []cardsig.Signature{{Protected: protected, Signature: signature}}, trusted)
		if err == nil && (protected != good.Protected || signature != good.Signature) {
			t.Fatalf("verified a signature the key did not make: %q %q over %q", protected, signature, cardJSON)
		}
		if err == nil {
			canon, _ := cardsig.Canonical(cardJSON)
			want, _ := cardsig.Canonical([]byte(card))
			if !bytes.Equal(canon, want) {
				t.Fatalf("the signature of one card verified over another: %q", cardJSON)
			}
		} else if errors.Is(err, cardsig.ErrUnsigned) {
			t.Fatalf("one signature given, yet unsigned: %v", err)
		}
	})
}
