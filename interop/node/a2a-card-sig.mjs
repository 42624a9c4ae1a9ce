// Signs and verifies agent cards with @a2a-js/sdk, for
// interop/a2a_card_test.go. Reads one JSON document from stdin:
//
//   node a2a-card-sig.mjs verify   {"card": CARD, "jwk": PUBLIC_JWK}  → {"ok": true} or {"error": "…"}
//   node a2a-card-sig.mjs sign     {"card": CARD, "jwk": PRIVATE_JWK, "kid": "…"} → the signed card, as JSON
//   node a2a-card-sig.mjs canonical {"card": CARD} → the SDK's canonical form, as a JSON string
import { readFileSync } from 'node:fs';
import * as jose from 'jose';
import { canonicalizeAgentCard, generateAgentCardSignature, verifyAgentCardSignature } from '@a2a-js/sdk';

const mode = process.argv[2];
const input = JSON.parse(readFileSync(0, 'utf8'));
console.debug = () => {}; // the verifier logs every entry it rejects
const card = input.card;
switch (mode) {
  case 'verify': {
    const key = await jose.importJWK(input.jwk, input.jwk.alg);
    try {
      await verifyAgentCardSignature(async () => key)(card);
      console.log(JSON.stringify({ ok: true }));
    } catch (e) {
      console.log(JSON.stringify({ error: String(e?.message ?? e) }));
    }
    break;
  }
  case 'sign': {
    const key = await jose.importJWK(input.jwk, input.jwk.alg);
    const signed = await generateAgentCardSignature(key, { alg: input.jwk.alg, kid: input.kid, typ: 'JOSE' })(card);
    console.log(JSON.stringify(signed));
    break;
  }
  case 'canonical':
    console.log(JSON.stringify(canonicalizeAgentCard(card)));
    break;
  default:
    throw new Error('mode: verify, sign or canonical');
}
