package cardsig_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/agui-gen/agui-gen/runtime/cardsig"
)

// card is an agent card as JSON, with members of every kind the canonical
// form has to get right.
const card = `{"name":"echo","description":"Echoes","version":"1.0.0",
	"supportedInterfaces":[{"url":"https://agent.example/a2a","protocolBinding":"JSONRPC"}],
	"capabilities":{"streaming":false,"extensions":[]},"skills":[{"id":"echo","name":"Echo","tags":["x"]}],
	"provider":{"organization":"Example ✓","url":""},"params":{"ratio":1.50,"big":1e3}}`

func signers(t testing.TB) map[string]crypto.Signer {
	out := map[string]crypto.Signer{}
	for name, curve := range map[string]elliptic.Curve{"ES256": elliptic.P256(), "ES384": elliptic.P384(), "ES512": elliptic.P521()} {
		k, err := ecdsa.GenerateKey(curve, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = k
	}
	_, ed, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	out["EdDSA"], out["RS256"] = ed, rs
	return out
}

// withSignatures is cardJSON with sigs as its signatures member.
func withSignatures(t testing.TB, cardJSON string, sigs ...cardsig.Signature) []byte {
	var m map[string]any
	if err := json.Unmarshal([]byte(cardJSON), &m); err != nil {
		t.Fatal(err)
	}
	var list []map[string]string
	for _, s := range sigs {
		list = append(list, map[string]string{"protected": s.Protected, "signature": s.Signature})
	}
	m["signatures"] = list
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSignAndVerify(t *testing.T) {
	ctx := context.Background()
	others := signers(t)
	for alg, key := range signers(t) {
		t.Run(alg, func(t *testing.T) {
			sig, err := cardsig.Sign([]byte(card), key, cardsig.SignOptions{KeyID: "k1", KeyURL: "https://agent.example/jwks.json"})
			if err != nil {
				t.Fatal(err)
			}
			var seen cardsig.Header
			keys := func(_ context.Context, h cardsig.Header) (crypto.PublicKey, error) {
				seen = h
				return cardsig.StaticKeys(map[string]crypto.PublicKey{"k1": key.Public()})(ctx, h)
			}
			// The card as sent, with its signature in it: formatting, member
			// order, empty members and the signatures do not matter.
			signed := withSignatures(t, card, sig)
			if err := cardsig.Verify(ctx, signed, []cardsig.Signature{sig}, keys); err != nil {
				t.Fatalf("verify: %v", err)
			}
			if want := (cardsig.Header{Algorithm: alg, KeyID: "k1", KeyURL: "https://agent.example/jwks.json", Type: "JOSE"}); seen != want {
				t.Errorf("header %+v, want %+v", seen, want)
			}
			reordered := `{"params":{"big":1000,"ratio":1.5},"skills":[{"tags":["x"],"name":"Echo","id":"echo"}],"name":"echo",
				"description":"Echoes","version":"1.0.0","capabilities":{"streaming":false},
				"supportedInterfaces":[{"protocolBinding":"JSONRPC","url":"https://agent.example/a2a"}],
				"provider":{"organization":"Example \u2713"},"documentationUrl":"","iconUrl":null}`
			if err := cardsig.Verify(ctx, []byte(reordered), []cardsig.Signature{sig}, keys); err != nil {
				t.Fatalf("verify the same card written otherwise: %v", err)
			}
			for name, tampered := range map[string]string{
				"name":      strings.Replace(card, `"name":"echo"`, `"name":"evil"`, 1),
				"url":       strings.Replace(card, `https://agent.example/a2a`, `https://evil.example/a2a`, 1),
				"boolean":   strings.Replace(card, `"streaming":false`, `"streaming":true`, 1),
				"number":    strings.Replace(card, `1.50`, `1.51`, 1),
				"member":    strings.Replace(card, `"version"`, `"iconUrl":"https://evil.example/i.png","version"`, 1),
				"interface": strings.Replace(card, `"supportedInterfaces"`, `"supportedInterfaces":[],"x"`, 1),
			} {
				err := cardsig.Verify(ctx, []byte(tampered), []cardsig.Signature{sig}, keys)
				if !errors.Is(err, cardsig.ErrNoValidSignature) {
					t.Errorf("a card with its %s changed: %v", name, err)
				}
			}
			other := cardsig.StaticKeys(map[string]crypto.PublicKey{"k1": others[alg].Public()})
			if err := cardsig.Verify(ctx, signed, []cardsig.Signature{sig}, other); !errors.Is(err, cardsig.ErrNoValidSignature) {
				t.Errorf("verified with another key: %v", err)
			}
			unknown := cardsig.StaticKeys(map[string]crypto.PublicKey{"k2": key.Public()})
			if err := cardsig.Verify(ctx, signed, []cardsig.Signature{sig}, unknown); err == nil || !strings.Contains(err.Error(), `kid "k1"`) {
				t.Errorf("verified with no key for its kid: %v", err)
			}
		})
	}
}

// TestVerifyTriesEverySignature: one signature that verifies is enough,
// wherever it is among the card's.
func TestVerifyTriesEverySignature(t *testing.T) {
	ctx := context.Background()
	keys := signers(t)
	good, err := cardsig.Sign([]byte(card), keys["ES256"], cardsig.SignOptions{KeyID: "good"})
	if err != nil {
		t.Fatal(err)
	}
	stranger, err := cardsig.Sign([]byte(card), keys["EdDSA"], cardsig.SignOptions{KeyID: "stranger"})
	if err != nil {
		t.Fatal(err)
	}
	trusted := cardsig.StaticKeys(map[string]crypto.PublicKey{"good": keys["ES256"].Public()})
	broken := cardsig.Signature{Protected: "!!", Signature: "??"}
	if err := cardsig.Verify(ctx, []byte(card), []cardsig.Signature{broken, stranger, good}, trusted); err != nil {
		t.Fatalf("the third signature verifies: %v", err)
	}
	err = cardsig.Verify(ctx, []byte(card), []cardsig.Signature{broken, stranger}, trusted)
	if !errors.Is(err, cardsig.ErrNoValidSignature) || !strings.Contains(err.Error(), "signature 0") || !strings.Contains(err.Error(), "signature 1") {
		t.Fatalf("every failure is named: %v", err)
	}
}

func b64(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// TestVerifyRefusesMalformed: signatures that are not detached JWSs with
// a public-key algorithm never verify, whatever the key function returns.
func TestVerifyRefusesMalformed(t *testing.T) {
	ctx := context.Background()
	key := signers(t)["ES256"]
	good, err := cardsig.Sign([]byte(card), key, cardsig.SignOptions{KeyID: "k1"})
	if err != nil {
		t.Fatal(err)
	}
	secret := []byte("0123456789abcdef0123456789abcdef")
	anything := func(_ context.Context, h cardsig.Header) (crypto.PublicKey, error) {
		if h.Algorithm == "HS256" {
			return secret, nil
		}
		return key.Public(), nil
	}
	payload, err := cardsig.Canonical([]byte(card))
	if err != nil {
		t.Fatal(err)
	}
	hsProtected := b64(`{"alg":"HS256","kid":"k1"}`)
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(hsProtected + "." + base64.RawURLEncoding.EncodeToString(payload)))
	hsSig := base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
	goodHeader, _ := base64.RawURLEncoding.DecodeString(good.Protected)
	for name, s := range map[string]cardsig.Signature{
		"empty":                     {},
		"no signature":              {Protected: good.Protected},
		"no header":                 {Signature: good.Signature},
		"alg none":                  {Protected: b64(`{"alg":"none"}`), Signature: ""},
		"alg none, some signature":  {Protected: b64(`{"alg":"none"}`), Signature: "AAAA"},
		"HMAC":                      {Protected: hsProtected, Signature: hsSig},
		"header not base64":         {Protected: "!!!", Signature: good.Signature},
		"header not JSON":           {Protected: b64(`alg ES256`), Signature: good.Signature},
		"header a list":             {Protected: b64(`["ES256"]`), Signature: good.Signature},
		"header without alg":        {Protected: b64(`{"kid":"k1"}`), Signature: good.Signature},
		"payload smuggled in":       {Protected: good.Protected + "." + base64.RawURLEncoding.EncodeToString(payload), Signature: good.Signature},
		"compact JWS as header":     {Protected: good.Protected + ".." + good.Signature, Signature: good.Signature},
		"signature not base64":      {Protected: good.Protected, Signature: "*" + good.Signature[1:]},
		"signature truncated":       {Protected: good.Protected, Signature: good.Signature[:len(good.Signature)-4]},
		"signature of another card": {Protected: good.Protected, Signature: mustSign(t, key, `{"name":"other"}`).Signature},
		"header changed":            {Protected: b64(strings.Replace(string(goodHeader), `"k1"`, `"k2"`, 1)), Signature: good.Signature},
		"critical header":           {Protected: b64(`{"alg":"ES256","kid":"k1","crit":["exp"],"exp":1}`), Signature: good.Signature},
	} {
		err := cardsig.Verify(ctx, []byte(card), []cardsig.Signature{s}, anything)
		if !errors.Is(err, cardsig.ErrNoValidSignature) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := cardsig.Verify(ctx, []byte(card), nil, anything); !errors.Is(err, cardsig.ErrUnsigned) {
		t.Errorf("no signatures: %v", err)
	}
	if err := cardsig.Verify(ctx, []byte(`{"name":`), []cardsig.Signature{good}, anything); err == nil || errors.Is(err, cardsig.ErrNoValidSignature) {
		t.Errorf("a card that is not JSON: %v", err)
	}
}

func mustSign(t *testing.T, key crypto.Signer, cardJSON string) cardsig.Signature {
	s, err := cardsig.Sign([]byte(cardJSON), key, cardsig.SignOptions{KeyID: "k1"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSignRefuses(t *testing.T) {
	key := signers(t)["ES256"]
	if _, err := cardsig.Sign([]byte(card), key, cardsig.SignOptions{}); err == nil {
		t.Error("signed without a key ID")
	}
	if _, err := cardsig.Sign([]byte(card), nil, cardsig.SignOptions{KeyID: "k"}); err == nil {
		t.Error("signed without a key")
	}
	p224, err := ecdsa.GenerateKey(elliptic.P224(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cardsig.Sign([]byte(card), p224, cardsig.SignOptions{KeyID: "k"}); err == nil {
		t.Error("signed with a P-224 key, which JWS has no algorithm for")
	}
	for _, bad := range []string{``, `null`, `[]`, `"card"`, `{"name":"a"} {"name":"b"}`, `{"name":"a"`} {
		if _, err := cardsig.Sign([]byte(bad), key, cardsig.SignOptions{KeyID: "k"}); err == nil {
			t.Errorf("signed %q", bad)
		}
	}
}

func TestCanonical(t *testing.T) {
	got, err := cardsig.Canonical([]byte(`{"name":"a","signatures":[{"protected":"x"}],"description":"","skills":[],
		"capabilities":{"streaming":false,"extensions":[]},"b":{"c":null,"d":1.50,"e":"é\u00e9","f":[null,"",{}]},"z":10e0}  `))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"b":{"d":1.5,"e":"éé"},"capabilities":{"streaming":false},"name":"a","z":10}`; string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if got, err := cardsig.Canonical([]byte(`{"signatures":[],"a":""}`)); err != nil || string(got) != `{}` {
		t.Fatalf("a card of nothing: %s %v", got, err)
	}
}

func TestJWKS(t *testing.T) {
	key := signers(t)["ES256"]
	set, err := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
		{Key: key.Public(), KeyID: "k1", Algorithm: "ES256"},
		{Key: []byte("0123456789abcdef0123456789abcdef"), KeyID: "secret", Algorithm: "HS256"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	keys, err := cardsig.JWKS(set)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if k, err := keys(ctx, cardsig.Header{KeyID: "k1"}); err != nil || k == nil {
		t.Errorf("k1: %v %v", k, err)
	}
	if k, err := keys(ctx, cardsig.Header{KeyID: "secret"}); err == nil {
		t.Errorf("a symmetric key is trusted for a card: %v", k)
	}
	if _, err := cardsig.JWKS([]byte(`{"keys":[{"kty":"EC"}]}`)); err == nil {
		t.Error("a JWKS with a broken key")
	}
	s := mustSign(t, key, card)
	if err := cardsig.Verify(ctx, []byte(card), []cardsig.Signature{s}, keys); err != nil {
		t.Errorf("verify with the JWKS: %v", err)
	}
}
