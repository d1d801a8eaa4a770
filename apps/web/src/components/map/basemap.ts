import type { FeatureCollection } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries from 'world-atlas/countries-110m.json';

let cached: FeatureCollection | null = null;

/** Natural Earth's country outlines (1:110m), bundled with the app so maps work without internet. */
export function worldOutlines(): FeatureCollection {
  if (!cached) {
    const topology = countries as unknown as Topology<{ countries: GeometryCollection }>;
    cached = feature(topology, topology.objects.countries) as FeatureCollection;
  }
  return cached;
}
