// The bar of issue 35: rot-js's 3x3 Rogue layout alone, in microseconds per layout.
//
// The iteration scheme is the one examples/bar.rs uses for MYK generate+check, so the two
// figures compare: WARMUP layouts first (the JIT settles), then BATCHES batches of PER_BATCH
// layouts, each batch timed on its own; the median batch's mean is printed. The median, not the
// mean, because the machine is shared: a batch another process interrupts is an outlier.
//
//   node bench.mjs [PER_BATCH [BATCHES [WARMUP [WIDTH HEIGHT]]]]
//
// 80x25 is rot-js's default map size; 3x3 cells make nine rooms, as a default MYK map has.
import ROT from "rot-js";

const [perBatch = 2000, batches = 15, warmup = 5000, width = 80, height = 25] =
  process.argv.slice(2).map(Number);

// rot-js's Rogue map prints "-- Unable to connect room." through console.log when a cell's
// extra connection finds no partner (often, at 3x3): the bar times the layout, not a terminal,
// so the message is dropped while the layouts are made (the figures are printed after).
const print = console.log;
console.log = () => {};

// A fixed seed: the same layouts every run. Each layout draws on from the one before.
ROT.RNG.setSeed(1);
let cells = 0; // read below so no layout is dead code
const layout = () => {
  const map = new ROT.Map.Rogue(width, height, { cellWidth: 3, cellHeight: 3 });
  map.create();
  cells += map.rooms.length;
};

for (let i = 0; i < warmup; i++) layout();
const means = [];
for (let b = 0; b < batches; b++) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < perBatch; i++) layout();
  const ns = Number(process.hrtime.bigint() - start);
  means.push(ns / perBatch / 1000);
}
means.sort((a, b) => a - b);
const median = means[Math.floor(means.length / 2)];
console.log = print;
console.log(`rot-js ${width}x${height} Rogue 3x3 layout: ${median.toFixed(2)} us (median of ${batches} batches of ${perBatch}; ${cells > 0 ? "ok" : "none"})`);
console.log(`us ${median.toFixed(3)}`);
