// Run alone (`node --expose-gc --import tsx --conditions=development bench/lib/geocoder-memory.ts`): loads the
// bundled geodata in a fresh process and prints, as one JSON line, the time each part took and the memory it keeps.
import { gazetteer, reverseGeocode, searchPlaces } from '@rootline/geocoder';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const settle = () => {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage();
};
const base = settle();
let t = performance.now();
const places = gazetteer();
const gazetteerMs = performance.now() - t;
const afterGazetteer = settle();
t = performance.now();
await reverseGeocode({ latitude: 48.85, longitude: 2.35 });
const coderMs = performance.now() - t;
const afterCoder = settle();
t = performance.now();
void places.names;
searchPlaces('paris');
const namesMs = performance.now() - t;
const afterNames = settle();
const mb = (a: NodeJS.MemoryUsage, b: NodeJS.MemoryUsage) => ({
  heap: (b.heapUsed + b.arrayBuffers - a.heapUsed - a.arrayBuffers) / 1e6,
  rss: (b.rss - a.rss) / 1e6,
});
console.log(
  JSON.stringify({
    places: places.size,
    gazetteerMs,
    coderMs,
    namesMs,
    gazetteer: mb(base, afterGazetteer),
    coder: mb(afterGazetteer, afterCoder),
    names: mb(afterCoder, afterNames),
    total: mb(base, afterNames),
  }),
);
