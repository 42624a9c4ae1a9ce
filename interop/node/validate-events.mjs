#!/usr/bin/env node
// Validate JSON values against the official AG-UI JSON Schema (Ajv) and
// against @ag-ui/core@1.0.0's own zod validators.
//
// stdin:  JSON Lines, each {"schema": "agui"|"meta", "def": "<Definition>", "value": <json>}
// stdout: one line per input line,
//         {"i": <index>, "ajv": {"ok": bool, "errors": [...]}, "core": {"ok": bool|null, "errors": [...]}}
//
// Env:    AGUI_SCHEMA       path of the AG-UI schema (default ../../schemas/agui/schema.json)
//         AGUI_META_SCHEMA  path of a second 2020-12 schema that $refs the AG-UI one by its
//                           $id; needed for "schema": "meta" lines.
//
// Exit status: 0 when every line was processed (whatever the verdicts), 2 on bad
// input (unparsable line, unknown schema or definition) or any other crash.

import { createInterface } from "node:readline";
import * as coreSchemas from "@ag-ui/core/schemas";
import {
  allowVendorKeywords,
  createAjv,
  defValidator,
  eventTypeToDef,
  loadAguiSchema,
  loadJson,
} from "./agui-schema.mjs";

const META_FALLBACK_ID = "agui-meta-schema";

function setup() {
  const ajv = createAjv();
  const agui = loadAguiSchema();
  allowVendorKeywords(ajv, agui);
  ajv.addSchema(agui);

  let metaId = null;
  if (process.env.AGUI_META_SCHEMA) {
    const meta = loadJson(process.env.AGUI_META_SCHEMA);
    allowVendorKeywords(ajv, meta);
    metaId = typeof meta.$id === "string" ? meta.$id : META_FALLBACK_ID;
    ajv.addSchema(meta, meta.$id ? undefined : META_FALLBACK_ID);
  }

  const eventDefs = new Set(eventTypeToDef(agui).values());
  return { ajv, aguiId: agui.$id, metaId, eventDefs };
}

/** The @ag-ui/core zod schema for an AG-UI definition, or null if it exports none. */
function coreSchemaFor(def, eventDefs) {
  const exported = coreSchemas[`${def}Schema`];
  if (exported && typeof exported.safeParse === "function") return exported;
  if (eventDefs.has(def)) return coreSchemas.EventSchema; // the discriminated union of all events
  return null;
}

/** zod path array -> JSON Pointer, like Ajv's instancePath. */
function pointer(path) {
  return path.map((p) => "/" + String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

/** Flatten zod issues (including the branches of union failures) into {path, code, message}. */
function zodErrors(issues, prefix = []) {
  const out = [];
  for (const issue of issues) {
    const path = [...prefix, ...(issue.path ?? [])];
    const branches = (issue.errors ?? []).filter((b) => b.length > 0);
    if (issue.code === "invalid_union" && branches.length > 0) {
      branches.forEach((branch) => out.push(...zodErrors(branch, path)));
    } else {
      out.push({ path: pointer(path), code: issue.code, message: issue.message });
    }
  }
  return out;
}

function checkAjv(validate, value) {
  const ok = validate(value);
  return { ok, errors: ok ? [] : validate.errors.map((e) => ({ ...e })) };
}

function checkCore(schema, value) {
  if (!schema) return { ok: null, errors: [] };
  try {
    const result = schema.safeParse(value);
    return result.success
      ? { ok: true, errors: [] }
      : { ok: false, errors: zodErrors(result.error.issues) };
  } catch (err) {
    return { ok: false, errors: [{ path: "", code: "exception", message: String(err?.message ?? err) }] };
  }
}

function parseLine(line, lineNo) {
  let entry;
  try {
    entry = JSON.parse(line);
  } catch (err) {
    throw new Error(`input line ${lineNo}: not JSON: ${err.message}`);
  }
  if (!entry || typeof entry !== "object" || Array.isArray(entry)) {
    throw new Error(`input line ${lineNo}: expected an object`);
  }
  if (entry.schema !== "agui" && entry.schema !== "meta") {
    throw new Error(`input line ${lineNo}: "schema" must be "agui" or "meta"`);
  }
  if (typeof entry.def !== "string" || entry.def === "") {
    throw new Error(`input line ${lineNo}: "def" must be a non-empty string`);
  }
  if (!("value" in entry)) throw new Error(`input line ${lineNo}: missing "value"`);
  return entry;
}

async function main() {
  const { ajv, aguiId, metaId, eventDefs } = setup();
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });

  let lineNo = 0;
  let i = 0;
  for await (const raw of rl) {
    lineNo++;
    if (raw.trim() === "") continue;
    const { schema, def, value } = parseLine(raw, lineNo);

    let result;
    if (schema === "agui") {
      result = {
        i,
        ajv: checkAjv(defValidator(ajv, aguiId, def), value),
        core: checkCore(coreSchemaFor(def, eventDefs), value),
      };
    } else {
      if (!metaId) throw new Error(`input line ${lineNo}: "meta" line but AGUI_META_SCHEMA is not set`);
      result = { i, ajv: checkAjv(defValidator(ajv, metaId, def), value), core: { ok: null, errors: [] } };
    }
    process.stdout.write(JSON.stringify(result) + "\n");
    i++;
  }
}

main().catch((err) => {
  process.stderr.write(`validate-events: ${err?.message ?? err}\n`);
  process.exitCode = 2;
});
