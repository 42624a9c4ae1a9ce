// The tests of this package exercise its copy in gen/a2a/a2acard: run
// agui-gen generate --out gen after editing the templates.

package a2acard_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/agui-gen/agui-gen/examples/a2a-demo/echo"
	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2acard"
)

func keys(t *testing.T) map[string]crypto.Signer {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	_, ed, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]crypto.Signer{"ec": ec, "ed": ed, "rsa": rs}
}

func TestSignAndVerify(t *testing.T) {
	ctx := context.Background()
	for kid, key := range keys(t) {
		t.Run(kid, func(t *testing.T) {
			card := echo.Card("https://agent.example")
			if err := a2acard.Sign(card, key, a2acard.SignOptions{KeyID: kid, KeyURL: "https://agent.example/jwks.json"}); err != nil {
				t.Fatal(err)
			}
			trusted := a2acard.StaticKeys(map[string]crypto.PublicKey{kid: key.Public()})
			signed := card.AppendJSON(nil)
			if err := a2acard.Verify(ctx, signed, trusted); err != nil {
				t.Fatalf("verify: %v", err)
			}
			// Formatting and member order do not matter; content does.
			var v map[string]any
			json.Unmarshal(signed, &v)
			pretty, _ := json.MarshalIndent(v, "", "  ")
			if err := a2acard.Verify(ctx, pretty, trusted); err != nil {
				t.Fatalf("verify reformatted: %v", err)
			}
			tampered := strings.Replace(string(signed), `"name":"echo"`, `"name":"evil"`, 1)
			if err := a2acard.Verify(ctx, []byte(tampered), trusted); err == nil {
				t.Fatal("a changed card verified")
			}
			// A member under its proto name overrides the signed one when the
			// card is decoded: it must not slip past the signature.
			blanked := strings.TrimSuffix(string(signed), "}") + `,"supported_interfaces":[],"documentation_url":""}`
			if err := a2acard.Verify(ctx, []byte(blanked), trusted); err == nil {
				t.Fatal("a card whose interfaces were blanked under their proto name verified")
			}
			other := a2acard.StaticKeys(map[string]crypto.PublicKey{kid: keys(t)[kid].Public()})
			if err := a2acard.Verify(ctx, signed, other); !errors.Is(err, a2acard.ErrNoValidSignature) {
				t.Fatalf("verified with another key: %v", err)
			}
		})
	}
}

func TestVerifyRefuses(t *testing.T) {
	ctx := context.Background()
	none := a2acard.StaticKeys(nil)
	if err := a2acard.Verify(ctx, echo.Card("x").AppendJSON(nil), none); !errors.Is(err, a2acard.ErrUnsigned) {
		t.Fatalf("unsigned: %v", err)
	}
	card := echo.Card("x")
	card.Signatures = []*a2a.AgentCardSignature{{Protected: "eyJhbGciOiJub25lIn0", Signature: ""}} // alg none
	if err := a2acard.Verify(ctx, card.AppendJSON(nil), none); err == nil {
		t.Fatal(`verified alg "none"`)
	}
	if err := a2acard.Sign(card, keys(t)["ec"], a2acard.SignOptions{}); err == nil {
		t.Fatal("signed without a key ID")
	}
}

func TestResolveWithJWKS(t *testing.T) {
	key := keys(t)["ec"]
	card := echo.Card("https://agent.example")
	if err := a2acard.Sign(card, key, a2acard.SignOptions{KeyID: "k1"}); err != nil {
		t.Fatal(err)
	}
	h, err := a2a.NewAgentCardHandler(card)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	set, _ := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: key.Public(), KeyID: "k1", Algorithm: "ES256"}}})
	trusted, err := a2acard.JWKS(set)
	if err != nil {
		t.Fatal(err)
	}
	got, err := a2acard.Resolve(context.Background(), srv.URL, trusted)
	if err != nil || got.Name != "echo" || len(got.Signatures) != 1 {
		t.Fatalf("resolve: %v", err)
	}
}

func TestCanonical(t *testing.T) {
	got, err := a2acard.Canonical([]byte(`{"name":"a","signatures":[{"protected":"x"}],"description":"","skills":[],
		"capabilities":{"streaming":false,"extensions":[]},"b":{"c":null,"d":1.50,"e":"é\u00e9"},"z":10e0}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"b":{"d":1.5,"e":"éé"},"capabilities":{"streaming":false},"name":"a","z":10}`; string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
