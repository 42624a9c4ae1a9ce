#!/usr/bin/env node
// Self-test of the Node interop scripts:
//  1. encode-events.mjs --format=json | (wrap as {"schema":"agui","def":...}) | validate-events.mjs
//     -> every event must pass both Ajv and @ag-ui/core ("62 passed, 0 failed");
//     the same again for the --edge-cases events;
//  2. the SSE output must be exactly "data: <json line>\n\n" per event, and the
//     protobuf output must split into one frame per event that @ag-ui/proto
//     decodes back to the same value as the JSON line.
// Exits non-zero on any failure.

import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { decode } from "@ag-ui/proto";
import { eventTypeToDef, loadAguiSchema } from "./agui-schema.mjs";

const here = dirname(fileURLToPath(import.meta.url));
let failed = false;

function run(script, args = [], input = undefined) {
  const res = spawnSync(process.execPath, [join(here, script), ...args], {
    input,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (res.status !== 0) {
    throw new Error(`${script} ${args.join(" ")} exited ${res.status}:\n${res.stderr}`);
  }
  return res.stdout; // Buffer
}

const jsonLines = (buf) => buf.toString("utf8").split("\n").filter((l) => l !== "");

function validateRound(label, encodeArgs) {
  const typeToDef = eventTypeToDef(loadAguiSchema());
  const lines = jsonLines(run("encode-events.mjs", ["--format=json", ...encodeArgs]));
  const input = lines
    .map((line) => {
      const value = JSON.parse(line);
      return JSON.stringify({ schema: "agui", def: typeToDef.get(value.type), value }) + "\n";
    })
    .join("");
  const results = jsonLines(run("validate-events.mjs", [], input)).map((l) => JSON.parse(l));

  let passed = 0;
  let bad = 0;
  if (results.length !== lines.length) {
    console.log(`${label}: ${lines.length} events in, ${results.length} results out`);
    bad++;
  }
  results.forEach((r) => {
    if (r.ajv.ok === true && r.core.ok === true) {
      passed++;
    } else {
      bad++;
      const type = JSON.parse(lines[r.i]).type;
      console.log(`FAIL ${label} #${r.i} ${type}: ${JSON.stringify({ ajv: r.ajv, core: r.core })}`);
    }
  });
  console.log(`${label}${passed} passed, ${bad} failed`);
  if (bad > 0) failed = true;
  return lines;
}

function checkSse(lines) {
  const sse = run("encode-events.mjs", ["--format=sse"]).toString("utf8");
  const expected = lines.map((l) => `data: ${l}\n\n`).join("");
  const ok = sse === expected;
  console.log(`sse: ${ok ? `${lines.length} frames, byte-identical to "data: <json line>\\n\\n"` : "MISMATCH"}`);
  if (!ok) failed = true;
}

function checkProto(lines) {
  const bytes = run("encode-events.mjs", ["--format=proto"]);
  const frames = [];
  for (let off = 0; off < bytes.length; ) {
    const len = bytes.readUInt32BE(off);
    frames.push(new Uint8Array(bytes.subarray(off + 4, off + 4 + len)));
    off += 4 + len;
  }
  let matching = 0;
  frames.forEach((frame, i) => {
    const decoded = JSON.parse(JSON.stringify(decode(frame)));
    if (i < lines.length && isDeepStrictEqual(decoded, JSON.parse(lines[i]))) {
      matching++;
    } else {
      console.log(`FAIL proto #${i}: decoded ${JSON.stringify(decoded)}\n  expected ${lines[i]}`);
    }
  });
  console.log(`proto: ${frames.length} frames (${lines.length} events), ${matching} decode back to their json line`);
  if (frames.length !== lines.length || matching !== lines.length) failed = true;
}

try {
  const lines = validateRound("", []);
  validateRound("with --edge-cases: ", ["--edge-cases"]);
  checkSse(lines);
  checkProto(lines);
} catch (err) {
  console.log(`selftest crashed: ${err?.message ?? err}`);
  failed = true;
}
process.exitCode = failed ? 1 : 0;
