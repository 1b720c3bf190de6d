// V8 settings for the program's own process, set before the app's modules load: imported
// first by bin/cogito.js. Both are read by V8 each time it needs them, so setting them at run
// time works (test/build/v8Flags.test.ts shows the second).
import v8 from 'node:v8';

// V8 lets the old generation grow to up to 4x what is live before a full collection, and
// keeps the pages it grew into: a day of streaming and drawing took the screen from ~240 to
// ~350 MB with ~55 MB live. Growing by 30 % at a time collects sooner and holds RSS near what
// is live (the soak: 189 -> 200 MB over 2,000 requests; bench/README.md, "Soak"). Read by V8
// each time it sets the next limit, so setting it here, before the app's heap grows, is enough.
v8.setFlagsFromString('--heap-growing-percent=30');

// The only WebAssembly in this process is yoga, Ink's layout engine. V8 first compiles it
// with its baseline compiler (Liftoff), then, once the screen has drawn a few frames,
// recompiles the hot layout functions with its optimizing compiler on a background thread:
// ~28 MB of compiler memory at the first reply, which the C allocator keeps (5-10 MB of idle
// RSS), and 75 ms of a core. Liftoff's code lays out a full screen in 0.13 ms against 0.10
// (Node 20; 0.18 against 0.05 on Node 24), a frame takes ~13 ms (bench/README.md, "Idle
// memory, issue 41"). The documents worker is its own process and keeps V8's defaults.
v8.setFlagsFromString('--liftoff-only');
