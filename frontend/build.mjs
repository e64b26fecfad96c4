// Builds the page bundle: `npm ci && npm run build` in this folder.
//
// Writes page.js and page.css into the page template's static folder. Both
// start with a fingerprint of what they were built from (this script, the
// package files and src/), and the template asks for them with the start of
// it (?v=...); tests/test_frontend.py checks both, so a change here that was
// not built fails the suite.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { build } from "esbuild";

const TEMPLATE = "../companion/widgets/jupyter/voila/templates/companion";
const OUT = `${TEMPLATE}/static`;

function fingerprint() {
  const files = ["build.mjs", "package.json", "package-lock.json"];
  for (const name of readdirSync("src").sort()) {
    files.push(`src/${name}`);
  }
  const hash = createHash("sha256");
  for (const name of files) {
    hash.update(`${name}\0`);
    hash.update(readFileSync(name));
    hash.update("\0");
  }
  return hash.digest("hex");
}

const built = fingerprint();
const banner = `/* The companion's page, built by frontend/build.mjs from ${built} */`;

await build({
  entryPoints: ["src/page.js", "src/scheme.js"],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2019",
  outdir: OUT,
  // sanitize-html and its parsers (about 250 KB) only serve HTML in widget
  // descriptions, which the companion never uses (see src/no-sanitize.js).
  alias: { "sanitize-html": "./src/no-sanitize.js" },
  loader: { ".svg": "dataurl", ".woff": "dataurl", ".woff2": "dataurl" },
  legalComments: "eof",
  banner: { js: banner, css: banner },
  logLevel: "info",
});

// The template asks for page.js?v=... and page.css?v=...: a browser that kept
// the old files (a tablet) fetches the new ones after an upgrade.
const page = `${TEMPLATE}/index.html.j2`;
const template = readFileSync(page, "utf8");
const versioned = template.replace(/((?:page|scheme)\.(?:js|css)\?v=)[0-9a-f]*/g, `$1${built.slice(0, 16)}`);
if (versioned === template && !template.includes(`?v=${built.slice(0, 16)}`)) {
  throw new Error(`${page} has no page.js?v= to update`);
}
writeFileSync(page, versioned);
