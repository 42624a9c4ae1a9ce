// Bundles @ag-ui/client for the browser, for the chat page agui-gen
// scaffold writes: one ES module exporting HttpAgent, what the page's
// ResumingHttpAgent needs of @ag-ui/client, and rxjs's Observable, built with esbuild
// from the packages package-lock.json pins, and beside it the licences of
// every package inside it.
//
//   node build-chat-bundle.mjs [OUT_DIR]   (default ../../templates/scaffold/web)
//
// Writes OUT_DIR/agui-client.js and OUT_DIR/agui-client.LICENSES.txt. The
// build is deterministic: the Go tests rebuild it and compare.
import { build } from "esbuild";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(process.argv[2] ?? join(here, "../../templates/scaffold/web"));
const client = JSON.parse(readFileSync(join(here, "node_modules/@ag-ui/client/package.json"), "utf8"));

const result = await build({
  // What the page's resuming-agent.js (docs/agui.md's ResumingHttpAgent) imports from @ag-ui/client and rxjs:
  // the page's import map names this file for both.
  stdin: {
    contents: 'export { enforceOutgoingInput, HttpAgent, runHttpRequest, transformHttpEventStream } from "@ag-ui/client";\n' +
      'export { Observable } from "rxjs";',
    resolveDir: here,
    loader: "js",
  },
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2020",
  minify: true,
  legalComments: "none", // the licences go in the file beside it, whole
  metafile: true,
  write: false,
  banner: {
    js: `// @ag-ui/client ${client.version} and the packages it needs, bundled for the browser by\n` +
      `// interop/node/build-chat-bundle.mjs (esbuild, from interop/node/package-lock.json).\n` +
      `// Not our code: their licences are in agui-client.LICENSES.txt beside this file.`,
  },
});
if (result.warnings.length) {
  console.error(result.warnings);
  process.exit(1);
}

// The packages inside the bundle, from the files esbuild read.
const packages = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const m = input.match(/^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//);
  if (m) packages.set(m[1], true);
}
const notices = [];
for (const dir of [...packages.keys()].sort()) {
  const pkg = JSON.parse(readFileSync(join(here, dir, "package.json"), "utf8"));
  const file = ["LICENSE", "LICENSE.md", "LICENSE.txt", "license", "LICENCE"].map((f) => join(here, dir, f)).find(existsSync);
  const text = file ? readFileSync(file, "utf8").trim() : `(no licence file in the package; package.json says ${pkg.license})`;
  notices.push(`${pkg.name} ${pkg.version} (${pkg.license})\n${"=".repeat(60)}\n${text}\n`);
}
writeFileSync(join(out, "agui-client.js"), result.outputFiles[0].contents);
writeFileSync(join(out, "agui-client.LICENSES.txt"),
  "Licences of the packages bundled in agui-client.js\n\n" + notices.join("\n"));
console.log(`${join(out, "agui-client.js")}: ${result.outputFiles[0].contents.length} bytes, ${notices.length} packages`);
