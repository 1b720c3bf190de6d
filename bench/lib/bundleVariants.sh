#!/bin/sh
# Builds the start-up experiments measured in bench/README.md ("what would close it") into
# bench/results/tmp/dist/ (git-ignored). Not part of the product; run the benchmarks on one
# with COGITO_BENCH_ENTRY, e.g.
#   sh bench/lib/bundleVariants.sh
#   COGITO_BENCH_ENTRY=bench/results/tmp/dist/lean.mjs npx tsx bench/startup.ts --quick
#
#   project.mjs  our code bundled (no tsx at run time); node_modules loaded by Node as usual
#   single.mjs   one file with every dependency, React's production build
#   notok.mjs    single.mjs without gpt-tokenizer (token counts fall back to the estimate)
#   lean.mjs     notok.mjs without cheerio, linkedom, turndown, readability and execa, standing
#                in for loading the web and system tools' libraries on first use
# notok and lean stub libraries out: they start and idle like the real thing, but their web
# and system tools do not work. They size the gain of lazy loading; they are not a build.
set -e
cd "$(dirname "$0")/../.."
out=bench/results/tmp/dist
stubs=bench/results/tmp/stubs
mkdir -p "$out" "$stubs"
echo 'export default { initialize() {}, connectToDevTools() {} };' > "$stubs/devtools.mjs"
echo 'export function encode(text) { return new Array(Math.ceil(text.length / 4)); }' > "$stubs/tokenizer.mjs"
cat > "$stubs/lib.mjs" <<'JS'
const stub = new Proxy(function () {}, { get: (_t, k) => (k === 'then' ? undefined : stub), apply: () => stub, construct: () => stub });
export default stub;
export const load = stub, Readability = stub, isProbablyReaderable = stub, parseHTML = stub, execa = stub;
JS
esbuild=node_modules/.bin/esbuild
base="bin/cogito.ts --bundle --platform=node --format=esm --jsx=automatic --log-level=error"
single="--external:node-llama-cpp --alias:react-devtools-core=./$stubs/devtools.mjs --define:process.env.NODE_ENV=\"production\""
req="import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);"
libs=""
for m in cheerio linkedom turndown @mozilla/readability execa; do libs="$libs --alias:$m=./$stubs/lib.mjs"; done
$esbuild $base --packages=external --outfile=$out/project.mjs
$esbuild $base $single --banner:js="$req" --outfile=$out/single.mjs
$esbuild $base $single --banner:js="$req" --alias:gpt-tokenizer=./$stubs/tokenizer.mjs --outfile=$out/notok.mjs
$esbuild $base $single --banner:js="$req" --alias:gpt-tokenizer=./$stubs/tokenizer.mjs $libs --outfile=$out/lean.mjs
ls -la $out
