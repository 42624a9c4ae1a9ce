// The official protobuf codec of AG-UI events (@ag-ui/proto@1.0.0) as a
// filter, for byte-exact comparisons:
//   node proto-codec.mjs encode   JSON Lines of events in, hex of proto.encode(event) out, one per line
//   node proto-codec.mjs decode   hex in, JSON of proto.decode(bytes) out, one per line
import { createInterface } from "node:readline";
import { encode, decode } from "@ag-ui/proto";

const mode = process.argv[2];
if (mode !== "encode" && mode !== "decode") {
  console.error("usage: node proto-codec.mjs encode|decode < lines");
  process.exit(2);
}
const warn = console.warn;
console.warn = (...args) => process.stderr.write(`warn: ${args.join(" ")}\n`);
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (!line.trim()) continue;
  try {
    if (mode === "encode") {
      process.stdout.write(Buffer.from(encode(JSON.parse(line))).toString("hex") + "\n");
    } else {
      process.stdout.write(JSON.stringify(decode(Buffer.from(line, "hex"))) + "\n");
    }
  } catch (err) {
    process.stdout.write(JSON.stringify({ error: String(err?.message ?? err) }) + "\n");
  }
}
console.warn = warn;
