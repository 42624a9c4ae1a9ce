// Shared helpers for the interop scripts: loading the official AG-UI JSON
// Schema, setting up Ajv (JSON Schema 2020-12) and reading facts out of the
// schema (event type -> definition name, which fields a definition has).

import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";

const here = dirname(fileURLToPath(import.meta.url));

/** Where the official schema is read from: $AGUI_SCHEMA, else the repo copy. */
export function aguiSchemaPath() {
  return process.env.AGUI_SCHEMA || resolve(here, "../../schemas/agui/schema.json");
}

export function loadJson(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new Error(`cannot read JSON file ${path}: ${err.message}`);
  }
}

export function loadAguiSchema() {
  const schema = loadJson(aguiSchemaPath());
  if (typeof schema.$id !== "string" || !schema.$defs) {
    throw new Error(`${aguiSchemaPath()} has no $id or no $defs; is it the AG-UI schema?`);
  }
  return schema;
}

/**
 * An Ajv instance for JSON Schema 2020-12.
 *
 * Strict mode stays on (so a typo in a schema keyword is an error rather than
 * silently ignored), with two allowances the official schema needs:
 *  - "$anchor": Ajv resolves $anchor references but does not list the keyword
 *    in its vocabulary, so strict mode calls it unknown. Declared here as an
 *    annotation.
 *  - strictRequired off: definitions such as DeveloperMessage list "id" in
 *    `required` while the property itself comes from an allOf mixin
 *    (BaseMessage), which strictRequired flags.
 */
export function createAjv() {
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
  ajv.addKeyword({ keyword: "$anchor", schemaType: "string" });
  return ajv;
}

/**
 * Declare every vendor keyword ("x-…") that appears anywhere in `schema` as an
 * annotation-only keyword, so strict mode tolerates it.
 */
export function allowVendorKeywords(ajv, schema) {
  const seen = new Set();
  const walk = (node) => {
    if (Array.isArray(node)) {
      node.forEach(walk);
    } else if (node && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        if (key.startsWith("x-")) seen.add(key);
        walk(value);
      }
    }
  };
  walk(schema);
  for (const keyword of seen) {
    if (!ajv.getKeyword(keyword)) ajv.addKeyword({ keyword });
  }
}

/** Ajv validator for `$defs/<def>` of the schema registered under `id`. */
export function defValidator(ajv, id, def) {
  const validate = ajv.getSchema(`${id}#/$defs/${encodeURIComponent(def)}`);
  if (!validate) throw new Error(`no definition "${def}" in schema ${id}`);
  return validate;
}

/**
 * Event type string -> definition name, read from the schema: every member of
 * $defs.Event.oneOf is a $ref to a definition whose `type` property is a const.
 * Returned in the order of $defs.EventType.enum.
 */
export function eventTypeToDef(schema) {
  const byType = new Map();
  for (const member of schema.$defs.Event.oneOf) {
    const def = member.$ref.replace("#/$defs/", "");
    const type = schema.$defs[def]?.properties?.type?.const;
    if (typeof type !== "string") throw new Error(`event definition ${def} has no const type`);
    byType.set(type, def);
  }
  const ordered = new Map();
  for (const type of schema.$defs.EventType.enum) {
    if (!byType.has(type)) throw new Error(`EventType ${type} has no member in $defs.Event`);
    ordered.set(type, byType.get(type));
  }
  if (ordered.size !== byType.size) throw new Error("$defs.Event has members not in EventType");
  return ordered;
}

/**
 * The property names a definition allows (its own `properties` plus those of
 * the definitions it composes through allOf), in declaration order: mixins
 * first, then its own. Also returns its `required` list.
 */
export function defFields(schema, def) {
  const node = schema.$defs[def];
  if (!node) throw new Error(`no definition "${def}"`);
  const names = [];
  const add = (name) => {
    if (!names.includes(name)) names.push(name);
  };
  for (const part of node.allOf ?? []) {
    if (part.$ref) defFields(schema, part.$ref.replace("#/$defs/", "")).properties.forEach(add);
  }
  Object.keys(node.properties ?? {}).forEach(add);
  return { properties: names, required: node.required ?? [] };
}

/** Whether a definition composes the Attributable mixin (optional subagentRunId). */
export function isAttributable(schema, def) {
  return (schema.$defs[def].allOf ?? []).some((p) => p.$ref === "#/$defs/Attributable");
}

/**
 * Return a copy of `value` (valid against `$defs/<def>`) with a canonical key
 * order, the order a code generator emitting structs would produce:
 *  - objects the schema describes field by field (events, messages, parts,
 *    tool calls, outcomes, patch operations, ...) follow the definition's
 *    declaration order, allOf mixins first (see defFields);
 *  - free-form JSON (metadata, rawEvent, state, activity content, any-typed
 *    values) has its keys sorted, which is what Go's encoding/json does for a
 *    map and what deterministic protobuf marshalling does for a Struct.
 * `ajv` must have the schema added; it picks the matching member of a oneOf.
 */
export function canonicalize(ajv, schema, def, value) {
  const walk = (node, v) => {
    if (node.$ref) return walkDef(node.$ref.replace("#/$defs/", ""), v);
    if (node.oneOf) return walk(pickMember(node.oneOf, v), v);
    if (node.type === "array" && node.items && Array.isArray(v)) return v.map((x) => walk(node.items, x));
    if (node.properties) return walkObject(node.properties, [], v);
    return sortKeysDeep(v);
  };

  const walkDef = (name, v) => {
    const node = schema.$defs[name];
    if (!node.properties && !node.allOf) return walk(node, v);
    const { properties } = defFields(schema, name);
    return walkObject(propertySchemas(name), properties, v);
  };

  const walkObject = (propSchemas, order, v) => {
    if (!v || typeof v !== "object" || Array.isArray(v)) return v;
    const keys = [...order.filter((k) => k in v), ...Object.keys(v).filter((k) => !order.includes(k)).sort()];
    const out = {};
    for (const k of keys) out[k] = propSchemas[k] ? walk(propSchemas[k], v[k]) : sortKeysDeep(v[k]);
    return out;
  };

  // The schema of each property of a definition, own properties winning over mixins'.
  const propertySchemas = (name) => {
    const node = schema.$defs[name];
    let props = {};
    for (const part of node.allOf ?? []) {
      if (part.$ref) props = { ...props, ...propertySchemas(part.$ref.replace("#/$defs/", "")) };
    }
    return { ...props, ...(node.properties ?? {}) };
  };

  const pickMember = (members, v) => {
    for (const member of members) {
      if (member.$ref) {
        if (defValidator(ajv, schema.$id, member.$ref.replace("#/$defs/", ""))(v)) return member;
      } else if (member.type === "array" ? Array.isArray(v) : typeof v === member.type) {
        return member;
      }
    }
    throw new Error(`no oneOf member matches ${JSON.stringify(v)}`);
  };

  return walkDef(def, value);
}

/** Deep copy with every object's keys sorted. */
export function sortKeysDeep(v) {
  if (Array.isArray(v)) return v.map(sortKeysDeep);
  if (v && typeof v === "object") {
    const out = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeysDeep(v[k]);
    return out;
  }
  return v;
}
